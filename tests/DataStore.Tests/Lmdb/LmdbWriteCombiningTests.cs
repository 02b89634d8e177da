using DataStore.Lmdb;
using DataStore.Tests.Conformance;
using DataStore.Tests.Writes;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// Concurrent writers share one LMDB transaction (ADR 0006), and each still gets its own outcome: a batch whose
/// precondition fails, or a write that fails, fails alone and the others commit. Another process holds the writer
/// lock while three callers queue, so the three are sure to meet in one transaction.
/// </summary>
public sealed class LmdbWriteCombiningTests : IDisposable
{
    private static readonly TimeSpan Wait = QueuedWriters.Wait;

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public async Task A_failed_precondition_in_a_combined_transaction_leaves_the_other_callers_writes_committed()
    {
        using (var store = LmdbTestStores.OpenSmall(StorePath, 64L << 20))
        {
            store.Put("cas"u8, "v1"u8);
            PreconditionFailure? failure = null;
            var combined = await RunQueuedBehindAnotherProcess(
                store,
                () => store.Put("first"u8, "1"u8),
                () => store.TryWrite(new WriteBatch().RequireValue("cas"u8, "other"u8).Put("cas"u8, "v2"u8).Put("lost"u8, "x"u8), out failure),
                () => store.Write(new WriteBatch().RequireValue("cas"u8, "v1"u8).Put("last"u8, "3"u8)));

            Assert.Equal(1, combined);
            Assert.NotNull(failure);
            Assert.Equal(0, failure.Index);
        }

        using var reopened = LmdbTestStores.OpenSmall(StorePath, 64L << 20);
        StoreAssert.Holds(reopened, "first"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(reopened, "last"u8.ToArray(), "3"u8.ToArray());
        StoreAssert.Holds(reopened, "cas"u8.ToArray(), "v1"u8.ToArray());
        Assert.False(reopened.HaveKey("lost"u8));
    }

    [Fact]
    public async Task A_write_that_fails_in_a_combined_transaction_fails_alone_and_the_others_commit()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath, 64L << 20);
        WriteDamagedPair(store, "damaged"u8);
        Exception? error = null;
        var combined = await RunQueuedBehindAnotherProcess(
            store,
            () => store.Put("first"u8, "1"u8),
            () => error = Record.Exception(() => store.Write(new WriteBatch().RequireValue("damaged"u8, "x"u8).Put("lost"u8, "x"u8))),
            () => store.Put("last"u8, "3"u8));

        Assert.Equal(0, combined); // the shared transaction failed, and each write ran again alone
        Assert.IsType<StoreFormatException>(error);
        StoreAssert.Holds(store, "first"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(store, "last"u8.ToArray(), "3"u8.ToArray());
        Assert.False(store.HaveKey("lost"u8));
    }

    [Fact]
    public async Task Each_caller_of_a_combined_transaction_gets_its_own_change_log_record_and_sequence()
    {
        using var store = (LmdbStore)KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb, ChangeFeed = true, Timeout = Wait });
        var combined = await RunQueuedBehindAnotherProcess(
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

    public void Dispose() => _directory.Dispose();

    private Task<long> RunQueuedBehindAnotherProcess(LmdbStore store, params Action[] writes) => QueuedWriters.RunBehindAnotherProcess(
        ["hold-lmdb-write-lock", StorePath, "Lmdb", "-", "3000"], () => store.Environment.CombinedCommits, () => store.Environment.PendingWrites, writes);

    // A pair whose stored value lacks its checksum, written through LMDB directly: reading it is a damage error.
    private static void WriteDamagedPair(LmdbStore store, ReadOnlySpan<byte> key) => LmdbTestStores.PutRaw(store, store.Environment.Dbi, key, "zz"u8);
}
