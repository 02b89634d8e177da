using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>Another process holding the writer lock makes writers wait, until the configured timeout (LMDB's own writer mutex never times out).</summary>
public sealed class LmdbLockWaitTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public async Task A_write_waits_for_another_process_to_release_the_lock_and_then_succeeds()
    {
        using var holder = HoldWriteLock(milliseconds: 4000);
        using var store = Open(TimeSpan.FromSeconds(30));

        // The put cannot finish while the other process holds the lock; a slow machine only makes it finish later.
        var put = Task.Run(() => store.Put("a"u8, "1"u8), TestContext.Current.CancellationToken);
        await Task.Delay(300, TestContext.Current.CancellationToken);
        Assert.False(put.IsCompleted, "the write finished while another process held the writer lock");
        await put.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);
        store.Write(new WriteBatch().RequireAbsent("b"u8).Put("b"u8, "2"u8));

        holder.WaitForLine(l => l == "RELEASED", TimeSpan.FromSeconds(30));
        StoreAssert.Holds(store, "a"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(store, "b"u8.ToArray(), "2"u8.ToArray());
    }

    [Fact]
    public void A_write_that_waits_past_the_timeout_raises_StoreTimeoutException_and_reads_go_on()
    {
        using var holder = HoldWriteLock(milliseconds: 600_000); // until killed below: a fixed hold can run out under load before the last wait
        using var store = Open(TimeSpan.FromMilliseconds(300));

        var put = Assert.Throws<StoreTimeoutException>(() => store.Put("a"u8, "1"u8));
        Assert.Equal(StoreFailure.Timeout, put.Cause);
        Assert.Contains(StorePath, put.Message);
        Assert.Throws<StoreTimeoutException>(() => store.Write(new WriteBatch().Put("b"u8, "2"u8)));
        Assert.True(store.HaveKey("seed"u8));                               // readers never wait for writers

        holder.KillHard();
        Assert.False(store.HaveKey("a"u8));
        store.Put("a"u8, "1"u8);
    }

    [Fact]
    public void A_writer_process_killed_while_holding_the_lock_does_not_block_the_next_write()
    {
        using var holder = HoldWriteLock(milliseconds: 120_000);
        holder.KillHard();
        holder.WaitForExit(TimeSpan.FromSeconds(30));
        using var store = Open(TimeSpan.FromSeconds(20));

        // The dead holder's lock is handed over (a robust mutex reports its owner died; a file lock is dropped by the OS).
        store.Put("a"u8, "1"u8);
        store.Put("b"u8, "2"u8);
        StoreAssert.Holds(store, "a"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(store, "b"u8.ToArray(), "2"u8.ToArray());
    }

    public void Dispose() => _directory.Dispose();

    private IKeyValueStore Open(TimeSpan timeout) =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb, Timeout = timeout });

    /// <summary>Creates the store, then starts a process that holds its writer lock for <paramref name="milliseconds"/>.</summary>
    private ChildProcess HoldWriteLock(int milliseconds)
    {
        using (var store = Open(TimeSpan.FromSeconds(10)))
        {
            store.Put("seed"u8, "1"u8);
        }

        var holder = ChildProcess.Start(["hold-lmdb-write-lock", StorePath, "Lmdb", "-", milliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        holder.WaitForLine(l => l == "LOCKED", TimeSpan.FromSeconds(30));
        return holder;
    }
}
