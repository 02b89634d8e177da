using System.Diagnostics;

namespace DataStore.Tests;

/// <summary>A real child process running tests/DataStore.TestHost, with its output read line by line.</summary>
public sealed class ChildProcess : IDisposable
{
    private readonly Process _process;
    private readonly List<string> _lines = [];
    private readonly SemaphoreSlim _lineArrived = new(0);
    private readonly System.Text.StringBuilder _errors = new();

    private ChildProcess(ProcessStartInfo start)
    {
        _process = new Process { StartInfo = start, EnableRaisingEvents = true };
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (_lines)
                {
                    _lines.Add(e.Data);
                }

                _lineArrived.Release();
            }
        };
        _process.ErrorDataReceived += (_, e) =>
        {
            lock (_errors)
            {
                _errors.AppendLine(e.Data);
            }
        };
        _process.Start();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>The test host's entry assembly, built beside this test assembly in the same configuration.</summary>
    public static string HostAssembly { get; } = FindHost();

    public int Id => _process.Id;

    /// <summary>Starts the test host with <paramref name="args"/>, optionally through a wrapper such as setpriv; with <paramref name="input"/>, its standard input takes <see cref="SendLine"/>.</summary>
    public static ChildProcess Start(IEnumerable<string> args, IReadOnlyList<string>? wrapper = null, string? hostAssembly = null, bool input = false)
    {
        var start = new ProcessStartInfo(wrapper is null ? "dotnet" : wrapper[0])
        {
            RedirectStandardInput = input,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in wrapper?.Skip(1) ?? [])
        {
            start.ArgumentList.Add(arg);
        }

        if (wrapper is not null)
        {
            start.ArgumentList.Add("dotnet");
        }

        start.ArgumentList.Add(hostAssembly ?? HostAssembly);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        return new ChildProcess(start);
    }

    /// <summary>Runs the host to completion and returns its exit code and output.</summary>
    public static (int ExitCode, string Output) Run(IEnumerable<string> args, TimeSpan? timeout = null, IReadOnlyList<string>? wrapper = null, string? hostAssembly = null)
    {
        using var child = Start(args, wrapper, hostAssembly);
        var code = child.WaitForExit(timeout ?? TimeSpan.FromSeconds(90));
        return (code, child.Output);
    }

    /// <summary>Everything printed so far, stdout then stderr.</summary>
    public string Output
    {
        get
        {
            lock (_lines)
            {
                lock (_errors)
                {
                    return string.Join('\n', _lines) + (_errors.Length > 0 ? "\nstderr: " + _errors : "");
                }
            }
        }
    }

    /// <summary>The last line that starts with <paramref name="prefix"/>, or null.</summary>
    public string? LastLine(string prefix)
    {
        lock (_lines)
        {
            return _lines.LastOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal));
        }
    }

    /// <summary>Waits until a line satisfies <paramref name="match"/>; fails the test when the child exits or the time runs out first.</summary>
    public string WaitForLine(Func<string, bool> match, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        var seen = 0;
        var drained = false;
        while (true)
        {
            lock (_lines)
            {
                for (; seen < _lines.Count; seen++)
                {
                    if (match(_lines[seen]))
                    {
                        return _lines[seen];
                    }
                }
            }

            var left = deadline - DateTime.UtcNow;
            if (_process.HasExited && !drained)
            {
                // The parameterless wait returns once the output pump has delivered every line the child wrote.
                _process.WaitForExit();
                drained = true;
                continue;
            }

            if (left <= TimeSpan.Zero || drained)
            {
                var exit = _process.HasExited ? $"exited with code {_process.ExitCode}" : "still running";
                Assert.Fail($"child {Id} printed no matching line ({exit}). Output:\n{Output}");
            }

            _lineArrived.Wait(left < TimeSpan.FromMilliseconds(200) ? left : TimeSpan.FromMilliseconds(200));
        }
    }

    /// <summary>Writes <paramref name="line"/> to the standard input of a child started with <c>input: true</c>.</summary>
    public void SendLine(string line)
    {
        _process.StandardInput.WriteLine(line);
        _process.StandardInput.Flush();
    }

    /// <summary>Closes the standard input of a child started with <c>input: true</c>: it reads the end of input.</summary>
    public void CloseInput() => _process.StandardInput.Close();

    /// <summary>Kills the child at once (SIGKILL on Unix) and waits for it to be gone.</summary>
    public void KillHard()
    {
        _process.Kill();
        _process.WaitForExit();
    }

    /// <summary>Waits for the child to exit; false (after killing it) when it is still running after <paramref name="timeout"/>.</summary>
    public bool TryWaitForExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
        {
            KillHard();
            return false;
        }

        _process.WaitForExit();
        return true;
    }

    /// <summary>The exit code of a child that has exited (128 + the signal for one killed by a signal, on Unix).</summary>
    public int ExitCode => _process.ExitCode;

    public int WaitForExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
        {
            KillHard();
            Assert.Fail($"child {Id} did not exit within {timeout}. Output:\n{Output}");
        }

        _process.WaitForExit();
        return _process.ExitCode;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            KillHard();
        }

        _process.Dispose();
        _lineArrived.Dispose();
    }

    private static string FindHost()
    {
        var testDirectory = AppContext.BaseDirectory;
        var candidate = Path.GetFullPath(testDirectory.Replace(
            $"{Path.DirectorySeparatorChar}DataStore.Tests{Path.DirectorySeparatorChar}",
            $"{Path.DirectorySeparatorChar}DataStore.TestHost{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
        var host = Path.Combine(candidate, "DataStore.TestHost.dll");
        return File.Exists(host) ? host : throw new FileNotFoundException($"The test host was not built at {host}; build the solution.");
    }
}
