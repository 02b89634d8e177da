using DataStore.Tests.Conformance;

namespace DataStore.Tests.Writes;

/// <summary>
/// Concurrent writers share one engine transaction and commit (ADR 0002, ADR 0006), and each still gets its own outcome:
/// a batch whose precondition fails writes nothing while the others commit, and a write that fails fails alone. Another
/// process holds the engine's writer lock while the callers queue, so they are sure to meet in one transaction. One
/// sealed subclass per backend that combines writers.
/// </summary>
public abstract class WriteCombiningContract : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    protected string StorePath => _directory.Sub("store");

    [Fact]
    public void Combined_writers_each_get_their_own_result_and_a_failed_precondition_writes_nothing()
    {
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("cas"u8, "v1"u8);
            store.Write(new WriteBatch().Put("range/1"u8, "x"u8).Put("range/2"u8, "x"u8));
            PreconditionFailure? failure = null;
            long removed = -1;
            var combined = RunQueuedBehindAnotherProcess(
                store,
                () => store.Put("first"u8, "1"u8),
                () => store.TryWrite(new WriteBatch().RequireValue("cas"u8, "other"u8).Put("cas"u8, "v2"u8).Put("lost"u8, "x"u8), out failure),
                () => removed = store.DeletePrefix("range/"u8),
                () => store.Write(new WriteBatch().RequireValue("cas"u8, "v1"u8).Put("last"u8, "3"u8)));

            Assert.Equal(1, combined);
            Assert.NotNull(failure);
            Assert.Equal(0, failure.Index);
            Assert.Equal(2, removed);
        }

        using var reopened = Open(Durability.Relaxed);
        StoreAssert.Holds(reopened, "first"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(reopened, "last"u8.ToArray(), "3"u8.ToArray());
        StoreAssert.Holds(reopened, "cas"u8.ToArray(), "v1"u8.ToArray());
        Assert.False(reopened.HaveKey("lost"u8));
        Assert.Empty(StoreAssert.Scan(reopened, "range/"u8.ToArray()));
    }

    [Fact]
    public void A_write_that_fails_in_a_combined_transaction_fails_alone_and_the_others_commit()
    {
        using var store = Open(Durability.Durable);
        PutDamagedPair(store, "damaged"u8.ToArray());
        Exception? error = null;
        var combined = RunQueuedBehindAnotherProcess(
            store,
            () => store.Put("first"u8, "1"u8),
            () => error = Record.Exception(() => store.Write(new WriteBatch().RequireValue("damaged"u8, "v"u8).Put("lost"u8, "x"u8))),
            () => store.Put("last"u8, "3"u8));

        Assert.Equal(0, combined); // the shared transaction failed, and each write ran again alone
        Assert.IsType<StoreFormatException>(error);
        StoreAssert.Holds(store, "first"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(store, "last"u8.ToArray(), "3"u8.ToArray());
        Assert.False(store.HaveKey("lost"u8));
    }

    public void Dispose()
    {
        _directory.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>Opens the backend's store at <see cref="StorePath"/>, waiting at most <see cref="QueuedWriters.Wait"/> for the writer.</summary>
    protected abstract IKeyValueStore Open(Durability durability);

    /// <summary>Stores a pair under <paramref name="key"/> whose stored form is damaged: reading it is a damage error.</summary>
    protected abstract void PutDamagedPair(IKeyValueStore store, byte[] key);

    /// <summary>Runs <paramref name="writes"/> queued behind another process holding the writer (<see cref="QueuedWriters"/>); returns the combined commits.</summary>
    protected abstract long RunQueuedBehindAnotherProcess(IKeyValueStore store, params Action[] writes);
}
