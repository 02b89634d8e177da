using DataStore.Lmdb;
using DataStore.Tests.Writes;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// Lmdb's combined writes (<see cref="WriteCombiningContract"/>; ADR 0006), with another process holding the writer lock
/// while the callers queue, and each caller's own change-log record.
/// </summary>
public sealed class LmdbWriteCombiningTests : WriteCombiningContract
{
    private static readonly TimeSpan Wait = QueuedWriters.Wait;

    [Fact]
    public async Task Each_caller_of_a_combined_transaction_gets_its_own_change_log_record_and_sequence()
    {
        using var store = (LmdbStore)KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb, ChangeFeed = true, Timeout = Wait });
        var combined = RunQueuedBehindAnotherProcess(
            store,
            () => store.Put("w/1"u8, "1"u8),
            () => store.Write(new WriteBatch().Put("w/2"u8, "2"u8).Delete("w/1"u8)),
            () => store.DeletePrefix("w/3"u8));

        var events = new List<StoreChange>();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        deadline.CancelAfter(Wait);
        await foreach (var change in store.Watch("w/"u8, afterSequence: 0, deadline.Token))
        {
            events.Add(change);
            if (events.Count == 3)
            {
                break;
            }
        }

        Assert.Equal(1, combined);
        Assert.Equal([1L, 2L, 3L], events.Select(e => e.Sequence));
        Assert.Equal(["Put w/1", "Put w/2 Delete w/1", "DeleteRange w/3"], events.Select(e => string.Join(' ', e.Changes.Select(c => $"{c.Kind} {System.Text.Encoding.ASCII.GetString(c.Key)}"))));
    }

    protected override IKeyValueStore Open(Durability durability) => LmdbTestStores.OpenSmall(StorePath, 64L << 20, durability, Wait);

    // A pair whose stored value lacks its checksum, written through LMDB directly: reading it is a damage error.
    protected override void PutDamagedPair(IKeyValueStore store, byte[] key) => LmdbTestStores.PutRaw((LmdbStore)store, ((LmdbStore)store).Environment.Dbi, key, "zz"u8);

    protected override long RunQueuedBehindAnotherProcess(IKeyValueStore store, params Action[] writes) => QueuedWriters.RunBehindAnotherProcess(
        StorePath, StoreBackend.Lmdb, () => ((LmdbStore)store).Environment.CombinedCommits, () => ((LmdbStore)store).Environment.PendingWrites, writes);
}
