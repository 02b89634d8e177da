using System.Text;
using DataStore.LiteDb;
using LiteDB;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// Point reads that find the engine's turn taken queue up and run later in one turn, on whichever thread takes it
/// (<see cref="LiteDbEngineGate.Read"/>): each asking thread must still get its own key's document, and none may run
/// while another holds the turn.
/// </summary>
public sealed class LiteDbPointReadQueueTests : IDisposable
{
    private const int Readers = 6;

    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Reads_queued_behind_a_held_turn_run_after_it_and_each_thread_gets_its_own_document()
    {
        using var db = LiteDbEngine.Open(_directory.Path, LiteDbKeys.Default);
        db.Engine.BeginTrans();
        for (var i = 0; i < Readers - 1; i++)
        {
            db.Table.Put(Key(i), Value(i)); // the last reader's key stays absent
        }

        db.Engine.Commit();
        db.Committed();

        var gate = new LiteDbEngineGate(_directory.Path, TimeSpan.FromSeconds(30));
        var documents = new BsonDocument?[Readers];
        var finished = new bool[Readers];
        var failures = new Exception?[Readers];
        var threads = Enumerable.Range(0, Readers).Select(i => new Thread(() =>
        {
            try
            {
                var read = LiteDbPointRead.For(db.Table, Key(i), keyOnly: false);
                gate.Read(read);
                read.ThrowIfFailed();
                documents[i] = read.TakeDocument();
                Volatile.Write(ref finished[i], true);
            }
            catch (Exception e)
            {
                failures[i] = e;
            }
        })).ToArray();

        using (gate.Engine())
        {
            foreach (var thread in threads)
            {
                thread.Start();
            }

            Assert.True(SpinWait.SpinUntil(() => gate.QueuedReads == Readers, TimeSpan.FromSeconds(60)), $"{gate.QueuedReads} of {Readers} reads queued");
            Thread.Sleep(20);
            Assert.All(finished, done => Assert.False(done)); // nothing ran in the turn held here
        }

        foreach (var thread in threads)
        {
            Assert.True(thread.Join(TimeSpan.FromSeconds(60)));
        }

        Assert.All(failures, Assert.Null);
        Assert.Equal(0, gate.QueuedReads);
        for (var i = 0; i < Readers - 1; i++)
        {
            Assert.Equal(Value(i), LiteDbTable.InlineValue(documents[i]!));
        }

        Assert.Null(documents[Readers - 1]);
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(int i) => Encoding.ASCII.GetBytes($"key-{i}");

    private static byte[] Value(int i) => Encoding.ASCII.GetBytes($"value of key {i}");
}
