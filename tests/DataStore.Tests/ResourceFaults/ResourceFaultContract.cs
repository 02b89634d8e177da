using System.Diagnostics;
using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.ResourceFaults;

/// <summary>
/// Rule 10 under resource faults (issue 20 item 4), each in real child processes: a full disk or a file size limit
/// mid-write, a store made read-only under an unprivileged user, a stopped process holding the store, and running out
/// of file descriptors. Each fault ends in a DataStoreException naming the path, the backend and the cause (never
/// another exception, a crash or a hang), loses no acknowledged write, and once the fault is gone a new process opens
/// the store, verifies it clean and writes.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public abstract class ResourceFaultContract : StoreContract
{
    private const int Steps = 200;

    // Above FileSystem's 1 MiB shared-state file, so every backend fails mid-write, not at open; values grow to 4 MiB.
    private const long FileSizeLimit = 2 << 20;

    // Descriptors left to the child past those open once it has run every path (RocksDb needs about 40 a store).
    private const int DescriptorsSpare = 160;
    private static readonly TimeSpan LockTimeout = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan TimeoutSlack = TimeSpan.FromSeconds(0.5);

    [Fact]
    public void A_file_size_limit_reached_mid_write_is_a_clear_error_and_loses_nothing()
    {
        RequireLinuxTools();
        var (code, output) = ChildProcess.Run(["fill-until-fault", StorePath, Backend.ToString(), "-", Steps.ToString(CultureInfo.InvariantCulture)],
            wrapper: FaultChild.FileSizeLimit(FileSizeLimit));
        FaultChild.AssertFault(code, output, StorePath, Backend, StoreFailure.DiskFull, "file size limit");
        Assert.DoesNotContain("READABLE LOST", output, StringComparison.Ordinal);
        FaultChild.AssertRecovered(StorePath, Backend, FaultChild.LastAcknowledged(output));
    }

    [Fact]
    public void A_full_file_system_mid_write_is_a_clear_error_and_loses_nothing()
    {
        RequireLinuxTools();
        var mountPoint = Directory.Sub("small");
        System.IO.Directory.CreateDirectory(mountPoint);
        var (mounted, refusal) = FaultChild.Tool("/bin/mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint);
        Assert.SkipUnless(mounted == 0, $"a small file system cannot be mounted here (mount -t tmpfs: {refusal}); the file size limit case covers a write that cannot grow a file");
        try
        {
            var store = Path.Combine(mountPoint, "store");
            var (code, output) = ChildProcess.Run(["fill-until-fault", store, Backend.ToString(), "-", Steps.ToString(CultureInfo.InvariantCulture)]);
            FaultChild.AssertFault(code, output, store, Backend, StoreFailure.DiskFull, "disk is full");
            Assert.DoesNotContain("READABLE LOST", output, StringComparison.Ordinal);
            Assert.Equal(0, FaultChild.Tool("/bin/mount", "-o", "remount,size=64m", mountPoint).ExitCode);
            FaultChild.AssertRecovered(store, Backend, FaultChild.LastAcknowledged(output));
        }
        finally
        {
            FaultChild.Tool("/bin/umount", "-l", mountPoint);
        }
    }

    [Fact]
    public void A_store_made_read_only_is_read_or_refused_clearly_and_takes_writes_once_writable_again()
    {
        RequireLinuxTools();
        var user = UnprivilegedUser.Prepare(Directory, StorePath);
        var (filled, fillOutput) = user.Run(["fill", StorePath, Backend.ToString(), "-", "ro", "40", "100"]);
        Assert.True(filled == 0, $"{Backend}: the user could not write its store: {fillOutput}");

        UnprivilegedUser.MakeReadOnly(StorePath);
        try
        {
            var (counted, countOutput) = user.Run(["count", StorePath, Backend.ToString(), "-", "ro"]);
            TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: reading the read-only store: {countOutput}");
            Assert.True(
                (counted == 0 && countOutput.Contains("COUNT 40", StringComparison.Ordinal)) ||
                (counted == 3 && countOutput.StartsWith("ERROR AccessDenied", StringComparison.Ordinal) && countOutput.Contains(StorePath, StringComparison.Ordinal)),
                $"{Backend}: a read of a read-only store must read every key or be refused as AccessDenied naming the store (exit {counted}): {countOutput}");

            var (written, writeOutput) = user.Run(["put", StorePath, Backend.ToString(), "-", "ro-late", "x"]);
            TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: writing the read-only store: {writeOutput}");
            Assert.True(written == 3 && writeOutput.StartsWith("ERROR AccessDenied", StringComparison.Ordinal) && writeOutput.Contains(StorePath, StringComparison.Ordinal),
                $"{Backend}: a write to a read-only store must be refused as AccessDenied naming the store (exit {written}): {writeOutput}");
        }
        finally
        {
            UnprivilegedUser.MakeWritable(StorePath);
        }

        var (again, againOutput) = user.Run(["put", StorePath, Backend.ToString(), "-", "ro-late", "x"]);
        Assert.True(again == 0, $"{Backend}: once writable again the store should take a write: {againOutput}");
        var (checkedCode, checkedOutput) = user.Run(["count", StorePath, Backend.ToString(), "-", "ro"]);
        Assert.True(checkedCode == 0 && checkedOutput.Contains("COUNT 41", StringComparison.Ordinal), $"{Backend}: {checkedOutput}");
        var (healthy, healthyOutput) = user.Run(["check-integrity", StorePath, Backend.ToString(), "-"]);
        Assert.True(healthy == 0, $"{Backend}: {healthyOutput}");
    }

    [Fact]
    public void A_stopped_process_holding_the_store_makes_others_time_out_until_it_continues_or_is_killed()
    {
        RequireLinuxTools();
        using (var store = KeyValueStore.Open(Options()))
        {
            store.Put("before"u8, "1"u8);
        }

        foreach (var ending in new[] { "CONT", "KILL" })
        {
            var (command, ready) = HolderOf(Backend);
            using var holder = ChildProcess.Start([command, StorePath, Backend.ToString(), "-", "2500"]);
            holder.WaitForLine(line => line.StartsWith(ready, StringComparison.Ordinal), TimeSpan.FromSeconds(60));
            var held = Stopwatch.StartNew();
            FaultChild.Signal(holder.Id, "STOP");
            try
            {
                AssertTimesOut();
                Thread.Sleep(TimeSpan.FromMilliseconds(Math.Max(0, 2600 - held.ElapsedMilliseconds)));
            }
            finally
            {
                FaultChild.Signal(holder.Id, ending);
            }

            var options = Options();
            options.Timeout = TimeSpan.FromSeconds(20);
            using (var store = KeyValueStore.Open(options))
            {
                store.Put(System.Text.Encoding.UTF8.GetBytes("after-" + ending), "1"u8);
            }

            holder.KillHard();
        }

        var (code, output) = ChildProcess.Run(["check-integrity", StorePath, Backend.ToString(), "-"]);
        Assert.True(code == 0, $"{Backend}: {output}");
        var (countCode, count) = ChildProcess.Run(["count", StorePath, Backend.ToString(), "-", ""]);
        Assert.True(countCode == 0 && count.Contains("COUNT 3", StringComparison.Ordinal), $"{Backend}: {count}");
    }

    [Fact]
    public void Running_out_of_file_descriptors_is_a_clear_error_other_stores_keep_working_and_it_recovers()
    {
        RequireLinuxTools();
        var parent = Directory.Sub("many");
        var (code, output) = ChildProcess.Run(["open-until-fault", parent, Backend.ToString(), "-", DescriptorsSpare.ToString(CultureInfo.InvariantCulture)],
            wrapper: FaultChild.WithoutDoubleMapping);
        var fault = output.Split('\n').FirstOrDefault(l => l.StartsWith("FAULT ", StringComparison.Ordinal));
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: {fault ?? output}");
        Assert.True(code == 0 && fault is not null, $"{Backend}: exit {code}. Output:\n{output}");
        Assert.Contains(parent, fault);
        Assert.Contains(Backend.ToString(), fault);
        Assert.Contains("too many open files", fault, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("OTHERS-OK", output);
        Assert.Contains("RECOVERED", output);
        var leaked = output.Split('\n').Where(l => l.StartsWith("EXTRA ", StringComparison.Ordinal)).ToList();
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: open once every store was closed, not before the first: {(leaked.Count == 0 ? "none" : string.Join(", ", leaked))}");
        Assert.DoesNotContain(leaked, l => l.Contains(parent, StringComparison.Ordinal));
    }

    private void AssertTimesOut()
    {
        var clock = Stopwatch.StartNew();
        var failure = Record.Exception(() =>
        {
            var options = Options();
            options.Timeout = LockTimeout;
            using var store = KeyValueStore.Open(options);
            store.Put("while-stopped"u8, "x"u8);
        });
        clock.Stop();
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{Backend}: with the holder stopped, {failure?.GetType().Name ?? "no failure"} after {clock.Elapsed.TotalSeconds:0.00} s ({LockTimeout.TotalSeconds} s timeout)"));
        var timeout = Assert.IsType<StoreTimeoutException>(failure);
        Assert.Contains(StorePath, timeout.Message);
        Assert.True(clock.Elapsed < LockTimeout + TimeoutSlack, $"{Backend}: the wait ended after {clock.Elapsed.TotalSeconds:0.00} s, the timeout is {LockTimeout.TotalSeconds} s");
    }

    // A process that holds the store: the engine's writer lock where the engine shares the store, the real owner where the library does.
    private static (string Command, string Ready) HolderOf(StoreBackend backend) => backend switch
    {
        StoreBackend.Sqlite => ("hold-sqlite-write-lock", "LOCKED"),
        StoreBackend.Lmdb => ("hold-lmdb-write-lock", "LOCKED"),
        StoreBackend.FileSystem => ("hold-filesystem-write-lock", "LOCKED"),
        _ => ("hold-open", "HOLDING"),
    };

    private static void RequireLinuxTools() =>
        Assert.SkipUnless(OperatingSystem.IsLinux() && File.Exists("/usr/bin/prlimit"), "the resource faults use Linux limits and signals (prlimit, kill -STOP)");
}
