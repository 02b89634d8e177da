using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

/// <summary>RocksDB lets one process open a store; another gets a clear "held by process N", never RocksDB's raw LOCK error.</summary>
public sealed class RocksDbProcessLockTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_second_process_is_told_which_process_holds_the_store()
    {
        using var holder = HoldOpen(milliseconds: 30_000);

        var error = Assert.Throws<StoreTimeoutException>(() => Open(TimeSpan.FromMilliseconds(300)));

        Assert.Equal(StoreFailure.Timeout, error.Cause);
        Assert.Equal(StoreBackend.RocksDb, error.Backend);
        Assert.Contains($"held by process {holder.Id.ToString(CultureInfo.InvariantCulture)}", error.Message);
        Assert.Contains(StorePath, error.Message);
        Assert.DoesNotContain("Resource temporarily unavailable", error.Message);
    }

    [Fact]
    public void A_second_process_waits_for_the_holder_to_close_and_then_opens()
    {
        using (var store = Open(TimeSpan.FromSeconds(10)))
        {
            store.Put("a"u8, "1"u8);
        }

        using var holder = HoldOpen(milliseconds: 1_000);
        using var reopened = Open(TimeSpan.FromSeconds(30));

        Assert.Equal(0, holder.WaitForExit(TimeSpan.FromSeconds(30)));
        StoreAssert.Holds(reopened, "a"u8.ToArray(), "1"u8.ToArray());
    }

    [Fact]
    public void Opening_the_store_again_in_the_same_process_fails_at_once_and_says_so()
    {
        using var store = Open(TimeSpan.FromSeconds(10));

        var error = Assert.Throws<DataStoreException>(() => Open(TimeSpan.FromSeconds(10)));

        Assert.Contains("already open in this process", error.Message);
        store.Put("a"u8, "1"u8);
    }

    public void Dispose() => _directory.Dispose();

    private IKeyValueStore Open(TimeSpan timeout) =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.RocksDb, Timeout = timeout });

    /// <summary>Starts a child process that opens the store and keeps it open for <paramref name="milliseconds"/>.</summary>
    private ChildProcess HoldOpen(int milliseconds)
    {
        var holder = ChildProcess.Start(["hold-open", StorePath, "RocksDb", "-", milliseconds.ToString(CultureInfo.InvariantCulture)]);
        holder.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), TimeSpan.FromSeconds(30));
        return holder;
    }
}
