using System.Diagnostics;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// The Relaxed timer's checkpoint syncs without the writer locks (ADR 0006, "The checkpoint off the writer's path"): no
/// put waits for it, and a checkpoint taken while this process's threads and another process write still records a
/// state that holds every write acknowledged before it began.
/// </summary>
public sealed class LmdbCheckpointTests : IDisposable
{
    // Makes every fsync and fdatasync of the process sleep DATASTORE_SLOW_SYNC_MS first: a slow disk.
    private const string SlowSyncSource = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <unistd.h>
        static void pause_first(void) { const char *ms = getenv("DATASTORE_SLOW_SYNC_MS"); if (ms) usleep(1000 * atoi(ms)); }
        int fsync(int fd) { pause_first(); return ((int (*)(int))dlsym(RTLD_NEXT, "fsync"))(fd); }
        int fdatasync(int fd) { pause_first(); return ((int (*)(int))dlsym(RTLD_NEXT, "fdatasync"))(fd); }
        """;

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void On_a_slow_disk_no_put_waits_for_the_timers_checkpoint_but_the_first_write_of_the_process()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "Relaxed commits skip their sync on Linux only (the boot id); elsewhere every commit syncs");
        var shim = BuildSlowSync();
        Assert.SkipWhen(shim is null, "no C compiler ('cc' is not on PATH) to build the slow-sync library");

        // 1 s a sync; the timer's checkpoint (data file and side file) used to hold the writer for two of them every
        // second, so 6 seconds of puts 200 ms apart had two or more puts over 1 s. Now only the first put may wait that
        // long (a process records and pins before its first write): these puts write far less than the 1 MiB after
        // which a checkpoint runs on the writer's path.
        var (code, output) = ChildProcess.Run(["worst-put", StorePath, "Lmdb", "Relaxed", "6", "200"], TimeSpan.FromMinutes(2),
            ["env", $"LD_PRELOAD={shim}", "DATASTORE_SLOW_SYNC_MS=1000"]);
        Assert.True(code == 0, output);
        var line = output.Split('\n').Single(l => l.StartsWith("PUTS ", StringComparison.Ordinal));
        var stalled = int.Parse(line.Split("over1000 ")[1].Trim(), System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(stalled <= 1, $"puts over 1 s on a disk whose syncs take 1 s (only the first put may wait for one): {line}");
    }

    [Fact]
    public void On_a_slow_disk_a_steady_stream_of_updates_past_the_growth_bound_waits_for_no_sync_and_the_file_stays_bounded()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "Relaxed commits skip their sync on Linux only (the boot id); elsewhere every commit syncs");
        var shim = BuildSlowSync();
        Assert.SkipWhen(shim is null, "no C compiler ('cc' is not on PATH) to build the slow-sync library");

        // 100 ms a sync. 8 keys of 256 KiB values overwritten every 200 ms for 10 s write 1 MiB every 4 puts, faster
        // than the timer's checkpoint (once a second) moves the pin: the checkpoint that bounds the file used to sync on
        // the writer's path then (two syncs; measured before the change: 7 puts of 35 over 150 ms, after: 0 of 43). Now
        // it starts in the background at a share of the bound and lands before the writer reaches the bound. Only the
        // first write of the process waits (it records and pins first); one more is allowed for a loaded machine.
        var (code, output) = ChildProcess.Run(["overwrite-stream", StorePath, "Lmdb", "Relaxed", "10", "200", "8", "262144", "150"], TimeSpan.FromMinutes(2),
            ["env", $"LD_PRELOAD={shim}", "DATASTORE_SLOW_SYNC_MS=100"]);
        Assert.True(code == 0, output);
        var line = output.Split('\n').Single(l => l.StartsWith("PUTS ", StringComparison.Ordinal));
        var slow = int.Parse(line.Split("slow ")[1].Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
        var files = long.Parse(line.Split("files ")[1].Trim(), System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(slow <= 1, $"puts after the first one over 150 ms on a disk whose syncs take 100 ms: {line}");
        Assert.True(files < 8 << 20, $"the store's files grew to {files} bytes for 2 MiB of live values: the pin did not move: {line}");
    }

    [Fact]
    public void A_checkpoint_taken_while_a_thread_and_another_process_write_keeps_every_write_acknowledged_before_it()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the boot id that tells a restart apart is read on Linux only");
        var copy = _directory.Sub("after-power-loss");
        var options = new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb, SyncInterval = TimeSpan.FromHours(1) };
        Directory.CreateDirectory(StorePath);
        DataStore.Manifest.StoreManifest.OpenOrCreate(StorePath, options);
        using var store = DataStore.Lmdb.LmdbStore.Open(Path.GetFullPath(StorePath), Durability.Relaxed, options, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance, 64 << 20);
        store.Put("start"u8, "1"u8);
        using var other = ChildProcess.Start(["put-loop", StorePath, "Lmdb", "Relaxed", "other", "1000000"]);
        other.WaitForLine(l => l == "ACK 100", TimeSpan.FromMinutes(1));
        var mine = 0;
        var stop = false;
        var writer = new Thread(() =>
        {
            var value = new byte[200];
            for (var i = 1; !Volatile.Read(ref stop); i++)
            {
                store.Put(System.Text.Encoding.ASCII.GetBytes($"mine/{i:D8}"), value);
                Volatile.Write(ref mine, i);
            }
        });
        writer.Start();

        int mineBefore = 0, otherBefore = 0;
        for (var round = 0; round < 5; round++)
        {
            Thread.Sleep(200);
            (mineBefore, otherBefore) = (Volatile.Read(ref mine), Acknowledged(other));
            store.Environment.Sync.SyncIfDirty(); // a checkpoint, while both keep writing
        }

        Volatile.Write(ref stop, true);
        writer.Join();
        other.KillHard();
        // A power loss now keeps the newest record's state: copy the files with no sync of this process running.
        store.Environment.Sync.RunBetweenSyncs(() => Copy(StorePath, copy));

        string[] anotherBoot = ["env", "DATASTORE_BOOT_ID=after-a-power-loss"];
        Assert.True(mineBefore > 0 && otherBefore > 100, $"the writers did not run: {mineBefore}, {otherBefore}");
        Assert.True(Count(copy, "mine/", anotherBoot) >= mineBefore, $"this process acknowledged {mineBefore} before the last checkpoint");
        Assert.True(Count(copy, "other/", anotherBoot) >= otherBefore, $"the other process acknowledged {otherBefore} before the last checkpoint");
        var (code, output) = ChildProcess.Run(["check-integrity", copy, "Lmdb", "-"], TimeSpan.FromMinutes(1), anotherBoot);
        Assert.True(code == 0, output);
    }

    public void Dispose() => _directory.Dispose();

    private static int Acknowledged(ChildProcess child) =>
        int.Parse(child.LastLine("ACK ")!["ACK ".Length..], System.Globalization.CultureInfo.InvariantCulture);

    private static int Count(string store, string prefix, string[] wrapper)
    {
        var (code, output) = ChildProcess.Run(["count", store, "Lmdb", "-", prefix], TimeSpan.FromMinutes(1), wrapper);
        Assert.True(code == 0, output);
        return int.Parse(output.Split("COUNT ")[1].Split('\n')[0].Trim(), System.Globalization.CultureInfo.InvariantCulture);
    }

    private string? BuildSlowSync()
    {
        var compiler = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Select(d => Path.Combine(d, "cc")).FirstOrDefault(File.Exists);
        if (compiler is null)
        {
            return null;
        }

        var source = _directory.Sub("slow-sync.c");
        var library = _directory.Sub("libslow-sync.so");
        File.WriteAllText(source, SlowSyncSource);
        using var process = Process.Start(new ProcessStartInfo(compiler, ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"]) { RedirectStandardError = true })!;
        var errors = process.StandardError.ReadToEnd();
        process.WaitForExit();
        Assert.True(process.ExitCode == 0, $"{compiler} could not build the slow-sync library: {errors}");
        return library;
    }

    private static void Copy(string from, string to)
    {
        Directory.CreateDirectory(to);
        // Lock files hold no state (the next open makes them), and a process just killed may still hold one, which
        // File.Copy's share check refuses.
        foreach (var file in Directory.GetFiles(from).Where(f => !f.EndsWith(".lock", StringComparison.Ordinal)))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        }
    }
}
