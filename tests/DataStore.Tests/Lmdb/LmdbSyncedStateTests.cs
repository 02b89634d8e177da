using DataStore.Lmdb;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// The side file <c>lmdb-synced.state</c> on its own: a record goes to the slot that does not hold the newest, so an
/// older record written late never hides a newer one, and writing one allocates almost nothing (writers checkpoint
/// often, and what a checkpoint allocates grows the GC heap).
/// </summary>
public sealed class LmdbSyncedStateTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void The_newest_record_is_read_back_and_an_older_one_written_later_does_not_hide_it()
    {
        var state = new LmdbSyncedState(Path.Combine(_directory.Path, LmdbSyncedState.FileName));
        state.Write(Record(10));
        state.Write(Record(5));
        state.Write(Record(7));

        var newest = state.Read();
        Assert.Equal(10UL, newest?.Transaction);
        Assert.Equal(Record(10).Metas, newest?.Metas);
        state.Write(Record(11));
        Assert.Equal(11UL, state.Read()?.Transaction);
    }

    [Fact]
    public void Writing_a_record_allocates_under_a_kibibyte()
    {
        var state = new LmdbSyncedState(Path.Combine(_directory.Path, LmdbSyncedState.FileName));
        var records = Enumerable.Range(1, 41).Select(i => Record((ulong)i)).ToArray();
        state.Write(records[0]); // creates the file

        var before = GC.GetAllocatedBytesForCurrentThread();
        foreach (var record in records[1..])
        {
            state.Write(record);
        }

        var perWrite = (GC.GetAllocatedBytesForCurrentThread() - before) / 40;
        Assert.True(perWrite < 1024, $"{perWrite} bytes allocated per record written");
        Assert.Equal(41UL, state.Read()?.Transaction);
    }

    public void Dispose() => _directory.Dispose();

    private static LmdbSyncedState.Record Record(ulong transaction)
    {
        var metas = new byte[2 * LmdbSyncedState.MetaBytes];
        metas.AsSpan().Fill((byte)transaction);
        return new LmdbSyncedState.Record(transaction, 42, 4096, metas);
    }
}
