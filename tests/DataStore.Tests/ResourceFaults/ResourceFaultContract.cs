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
    private static readonly TimeSpan LockTimeout = TimeSpan.FromSeconds(0.5);
    private static readonly TimeSpan TimeoutSlack = TimeSpan.FromSeconds(0.5);
    private static readonly TimeSpan ChildTimeout = TimeSpan.FromSeconds(90);

    [Fact]
    public void A_file_size_limit_reached_mid_write_is_a_clear_error_and_loses_nothing()
    {
        RequireLinuxTools();
        var output = FaultChild.FillThenCheck(StorePath, Backend, Steps, FaultChild.FileSizeLimit(FileSizeLimit), faultGone: () => { }); // the child lifts its limit
        FaultChild.AssertFault(output, StorePath, Backend, StoreFailure.DiskFull, "file size limit");
        Assert.DoesNotContain("READABLE LOST", output, StringComparison.Ordinal);
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
            var output = FaultChild.FillThenCheck(store, Backend, Steps, wrapper: null,
                faultGone: () => Assert.Equal(0, FaultChild.Tool("/bin/mount", "-o", "remount,size=64m", mountPoint).ExitCode));
            FaultChild.AssertFault(output, store, Backend, StoreFailure.DiskFull, "disk is full");
            Assert.DoesNotContain("READABLE LOST", output, StringComparison.Ordinal);
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

        // One child as the user runs every step, each on a fresh open of the store, at the cues of this test.
        using var child = user.Start(["read-only-steps", StorePath, Backend.ToString(), "-"]);
        child.WaitForLine(line => line == "FILLED", ChildTimeout);
        UnprivilegedUser.MakeReadOnly(StorePath);
        try
        {
            child.SendLine("read-only");
            child.WaitForLine(line => line == "TRIED", ChildTimeout);
        }
        finally
        {
            UnprivilegedUser.MakeWritable(StorePath);
        }

        var read = child.LastLine("READ ")!;
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: reading the read-only store: {read}");
        Assert.True(read == "READ OK COUNT 40" || IsRefusedNamingTheStore(read, "READ"),
            $"{Backend}: a read of a read-only store must read every key or be refused as AccessDenied naming the store: {read}");
        var write = child.LastLine("WRITE ")!;
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: writing the read-only store: {write}");
        Assert.True(IsRefusedNamingTheStore(write, "WRITE"), $"{Backend}: a write to a read-only store must be refused as AccessDenied naming the store: {write}");

        child.SendLine("writable");
        var code = child.WaitForExit(ChildTimeout);
        Assert.True(code == 0 && child.LastLine("AGAIN ") == "AGAIN OK PUT" && child.LastLine("RECOUNT ") == "RECOUNT OK COUNT 41" && child.LastLine("VERIFY ") == "VERIFY OK clean",
            $"{Backend}: once writable again the store should take a write, count every key and verify clean (exit {code}):\n{child.Output}");
    }

    [Fact]
    public void A_stopped_process_holding_the_store_makes_others_time_out_until_it_continues_or_is_killed()
    {
        RequireLinuxTools();
        using (var store = KeyValueStore.Open(Options()))
        {
            store.Put("before"u8, "1"u8);
        }

        // One holder for both rounds: it takes the store at a cue, and lets it go at the next (no fixed waits).
        using var holder = ChildProcess.Start(["hold-on-cue", StorePath, Backend.ToString(), "-"], input: true);
        var round = 0;
        foreach (var ending in new[] { "CONT", "KILL" })
        {
            var locks = 0;
            round++;
            holder.WaitForLine(line => line == "LOCKED" && ++locks == round, ChildTimeout);
            FaultChild.Stop(holder.Id);
            try
            {
                AssertTimesOut();
            }
            finally
            {
                FaultChild.Signal(holder.Id, ending);
            }

            if (ending == "CONT")
            {
                holder.SendLine("release"); // a continued holder goes on to finish what it held the store for
            }

            var options = Options();
            options.Timeout = TimeSpan.FromSeconds(20);
            using (var store = KeyValueStore.Open(options))
            {
                store.Put(System.Text.Encoding.UTF8.GetBytes("after-" + ending), "1"u8);
            }

            if (ending == "CONT")
            {
                holder.SendLine("again");
            }
        }

        holder.KillHard();
        var (code, output) = ChildProcess.Run(["verify-count", StorePath, Backend.ToString(), "-", ""]);
        Assert.True(code == 0 && output.Contains("COUNT 3", StringComparison.Ordinal) && output.Contains("HEALTHY", StringComparison.Ordinal), $"{Backend}: {output}");
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

    private bool IsRefusedNamingTheStore(string line, string step) =>
        line.StartsWith($"{step} ERROR AccessDenied ", StringComparison.Ordinal) && line.Contains(StorePath, StringComparison.Ordinal);

    private static void RequireLinuxTools() =>
        Assert.SkipUnless(OperatingSystem.IsLinux() && File.Exists("/usr/bin/prlimit"), "the resource faults use Linux limits and signals (prlimit, kill -STOP)");
}
