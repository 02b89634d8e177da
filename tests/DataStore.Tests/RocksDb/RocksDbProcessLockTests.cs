using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

/// <summary>RocksDB lets one process open a store; the others reach it through that process (ADR 0015), and carry on when it closes.</summary>
public sealed class RocksDbProcessLockTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_second_process_reads_through_the_holder_and_carries_on_after_it_closes()
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
