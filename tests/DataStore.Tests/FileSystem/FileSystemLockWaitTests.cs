using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>Another process holding a FileSystem store's write lock makes writers and scans wait until the timeout; point reads do not wait.</summary>
public sealed class FileSystemLockWaitTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private DataStoreOptions Options(TimeSpan timeout) => new() { Path = StorePath, Backend = StoreBackend.FileSystem, Timeout = timeout };

    [Fact]
    public void A_write_waits_for_another_process_to_release_the_lock_and_then_succeeds()
    {
        using var holder = HoldWriteLock(milliseconds: 1500);
        using var store = KeyValueStore.Open(Options(TimeSpan.FromSeconds(30)));

        store.Put("a"u8, "1"u8);
        store.Write(new WriteBatch().RequireAbsent("b"u8).Put("b"u8, "2"u8));

        // The holder prints RELEASED just after unlocking, so the write may return first: wait for it to finish.
        Assert.Equal(0, holder.WaitForExit(TimeSpan.FromSeconds(30)));
        Assert.NotNull(holder.LastLine("RELEASED"));
        StoreAssert.Holds(store, "a"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(store, "b"u8.ToArray(), "2"u8.ToArray());
    }

    [Fact]
    public void A_write_or_scan_that_waits_past_the_timeout_raises_StoreTimeoutException_while_point_reads_go_on()
    {
        using (var setup = KeyValueStore.Open(Options(TimeSpan.FromSeconds(30))))
        {
            setup.Put("x"u8, "1"u8);
        }

        // Held until the holder is killed (the lock goes with the process), not for a fixed time: on a loaded CI machine
        // opening the store and the first timed-out put once took the whole of a 5 s hold, and the batch then got in.
        using var holder = HoldWriteLock(milliseconds: 600_000);
        using var store = KeyValueStore.Open(Options(TimeSpan.FromMilliseconds(300)));

        var put = Assert.Throws<StoreTimeoutException>(() => store.Put("a"u8, "1"u8));
        Assert.Equal(StoreFailure.Timeout, put.Cause);
        Assert.Contains(StorePath, put.Message);
        Assert.Throws<StoreTimeoutException>(() => store.Write(new WriteBatch().Put("b"u8, "2"u8)));
        Assert.Throws<StoreTimeoutException>(() => store.ScanPrefix([]));
        Assert.True(store.HaveKey("x"u8));
        Assert.Equal("1"u8.ToArray(), store.Get("x"u8));

        holder.KillHard();
        Assert.False(store.HaveKey("a"u8));
        Assert.False(store.HaveKey("b"u8));
        store.Put("a"u8, "1"u8);
    }

    public void Dispose() => _directory.Dispose();

    private ChildProcess HoldWriteLock(int milliseconds)
    {
        Assert.SkipWhen(OperatingSystem.IsWindows(), "the holder process locks with flock, which Windows lacks");
        KeyValueStore.Open(Options(TimeSpan.FromSeconds(30))).Dispose();
        var holder = ChildProcess.Start(["hold-filesystem-write-lock", StorePath, "-", "-", milliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        holder.WaitForLine(l => l == "LOCKED", TimeSpan.FromSeconds(30));
        return holder;
    }
}
