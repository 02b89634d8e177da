using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sqlite;

/// <summary>Another process holding SQLite's write lock makes writers wait, never fail with "database is locked", until the timeout.</summary>
public sealed class SqliteLockWaitTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_write_waits_for_another_process_to_release_the_lock_and_then_succeeds()
    {
        using var holder = HoldWriteLock(milliseconds: 1500);
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Timeout = TimeSpan.FromSeconds(30) });

        store.Put("a"u8, "1"u8);
        store.Write(new WriteBatch().RequireAbsent("b"u8).Put("b"u8, "2"u8));

        Assert.NotNull(holder.LastLine("RELEASED"));
        StoreAssert.Holds(store, "a"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(store, "b"u8.ToArray(), "2"u8.ToArray());
    }

    [Fact]
    public void A_write_that_waits_past_the_timeout_raises_StoreTimeoutException_and_writes_nothing()
    {
        using var holder = HoldWriteLock(milliseconds: 600_000); // until killed below: a fixed hold can run out under load before the last wait
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Timeout = TimeSpan.FromMilliseconds(300) });

        var put = Assert.Throws<StoreTimeoutException>(() => store.Put("a"u8, "1"u8));
        Assert.Equal(StoreFailure.Timeout, put.Cause);
        Assert.Contains(StorePath, put.Message);
        Assert.DoesNotContain("database is locked", put.Message);
        Assert.Throws<StoreTimeoutException>(() => store.Write(new WriteBatch().Put("b"u8, "2"u8)));

        holder.KillHard();
        Assert.False(store.HaveKey("a"u8));
        Assert.False(store.HaveKey("b"u8));
        store.Put("a"u8, "1"u8);
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>Creates the store, then starts a process that holds its write lock for <paramref name="milliseconds"/>.</summary>
    private ChildProcess HoldWriteLock(int milliseconds)
    {
        using (KeyValueStore.Open(StorePath))
        {
        }

        var holder = ChildProcess.Start(["hold-sqlite-write-lock", StorePath, "-", "-", milliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        holder.WaitForLine(l => l == "LOCKED", TimeSpan.FromSeconds(30));
        return holder;
    }
}
