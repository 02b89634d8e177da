namespace DataStore.Tests.ResourceFaults;

/// <summary>
/// Runs test host commands as a user the file permissions apply to: as root (CI), the unprivileged user 65534 through
/// setpriv with a copy of the host it can read, owning the store directory; as anyone else, that user directly.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
internal sealed class UnprivilegedUser
{
    private const string Nobody = "65534";
    private readonly IReadOnlyList<string>? _wrapper;
    private readonly string? _host;

    private UnprivilegedUser(IReadOnlyList<string>? wrapper, string? host)
    {
        _wrapper = wrapper;
        _host = host;
    }

    /// <summary>Creates <paramref name="storePath"/> owned by the user who will run the commands.</summary>
    public static UnprivilegedUser Prepare(TemporaryDirectory scratch, string storePath)
    {
        Directory.CreateDirectory(storePath);
        if (Environment.UserName != "root")
        {
            return new UnprivilegedUser(null, null);
        }

        Assert.SkipUnless(File.Exists("/usr/bin/setpriv"), "running as root without setpriv (util-linux): cannot drop privileges to test permissions");
        var host = Conformance.AccessDeniedProbe.CopyHostFor(scratch);
        var (code, output) = FaultChild.Tool("/bin/chown", "-R", $"{Nobody}:{Nobody}", storePath);
        Assert.True(code == 0, $"chown failed: {output}");
        return new UnprivilegedUser(["/usr/bin/setpriv", $"--reuid={Nobody}", $"--regid={Nobody}", "--clear-groups", "--"], host);
    }

    /// <summary>Runs the host with <paramref name="args"/> as this user.</summary>
    public (int ExitCode, string Output) Run(IEnumerable<string> args) => ChildProcess.Run(args, wrapper: _wrapper, hostAssembly: _host);

    /// <summary>Starts the host with <paramref name="args"/> as this user, its standard input open for cues.</summary>
    public ChildProcess Start(IEnumerable<string> args) => ChildProcess.Start(args, _wrapper, _host, input: true);

    /// <summary>Takes write permission away from the directory, every directory under it and every file (the owner may still enter and read).</summary>
    public static void MakeReadOnly(string path) => Change(path, add: 0, remove: UnixFileMode.UserWrite | UnixFileMode.GroupWrite | UnixFileMode.OtherWrite);

    /// <summary>Gives the owner write permission back everywhere under <paramref name="path"/>.</summary>
    public static void MakeWritable(string path) => Change(path, add: UnixFileMode.UserWrite, remove: 0);

    private static void Change(string path, UnixFileMode add, UnixFileMode remove)
    {
        foreach (var entry in new DirectoryInfo(path).EnumerateFileSystemInfos("*", SearchOption.AllDirectories).Prepend(new DirectoryInfo(path)))
        {
            if (entry.LinkTarget is null)
            {
                entry.UnixFileMode = (entry.UnixFileMode | add) & ~remove;
            }
        }
    }
}
