using System.Buffers.Binary;
using System.Globalization;
using DataStore.Sqlite;
using DataStore.Tests.Conformance;
using DataStore.Tests.Writes;
using Microsoft.Data.Sqlite;

namespace DataStore.Tests.Sqlite;

/// <summary>
/// Concurrent writers share one SQLite transaction and commit (ADR 0002), and each still gets its own outcome: a batch
/// whose precondition fails writes nothing while the others commit, and a write that fails fails alone. Another process
/// holds SQLite's write lock while the callers queue, so they are sure to meet in one transaction.
/// </summary>
public sealed class SqliteWriteCombiningTests : IDisposable
{
    private static readonly TimeSpan Wait = QueuedWriters.Wait;

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public async Task Combined_writers_each_get_their_own_result_and_a_failed_precondition_writes_nothing()
    {
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("cas"u8, "v1"u8);
            store.Write(new WriteBatch().Put("range/1"u8, "x"u8).Put("range/2"u8, "x"u8));
            PreconditionFailure? failure = null;
            long removed = -1;
            var combined = await RunQueuedBehindAnotherProcess(
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

        using var reopened = KeyValueStore.Open(Options(Durability.Relaxed));
        StoreAssert.Holds(reopened, "first"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(reopened, "last"u8.ToArray(), "3"u8.ToArray());
        StoreAssert.Holds(reopened, "cas"u8.ToArray(), "v1"u8.ToArray());
        Assert.False(reopened.HaveKey("lost"u8));
        Assert.Empty(StoreAssert.Scan(reopened, "range/"u8.ToArray()));
    }

    [Fact]
    public async Task A_write_that_fails_in_a_combined_transaction_fails_alone_and_the_others_commit()
    {
        using var store = Open(Durability.Durable);
        store.Put("damaged"u8, "v"u8);
        BreakChecksum(StorePath, "damaged"u8.ToArray());
        Exception? error = null;
        var combined = await RunQueuedBehindAnotherProcess(
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

    [Fact]
    public void Durable_puts_from_many_threads_survive_kill_9_right_after_they_are_acknowledged()
    {
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        for (var round = 0; round < 3; round++)
        {
            var path = _directory.Sub($"kill-{round}");
            var acknowledged = new List<(int Thread, int Number)>();
            using (var child = ChildProcess.Start(["threaded-put-loop", path, "Sqlite", "Durable", "8", "1000000"]))
            {
                var target = 50 + random.Next(400);
                var seen = 0;
                child.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal) && ++seen >= target, Wait);
                child.KillHard();
                acknowledged.AddRange(child.Output.Split('\n').Where(l => l.StartsWith("ACK ", StringComparison.Ordinal))
                    .Select(l => l.Split(' ')).Where(p => p.Length == 3 && p[2].Length > 0)
                    .Select(p => (int.Parse(p[1], CultureInfo.InvariantCulture), int.Parse(p[2], CultureInfo.InvariantCulture))));
            }

            using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Sqlite });
            foreach (var (thread, number) in acknowledged)
            {
                var key = Key($"t{thread}", number);
                Assert.True(store.Get(key) is { } value && BinaryPrimitives.ReadInt32BigEndian(value) == number,
                    $"put t{thread}/{number} was acknowledged and lost (seed {seed}, round {round}, {acknowledged.Count} acknowledged)");
            }
        }
    }

    public void Dispose() => _directory.Dispose();

    private DataStoreOptions Options(Durability durability) =>
        new() { Path = StorePath, Backend = StoreBackend.Sqlite, Durability = durability, Timeout = Wait };

    private SqliteStore Open(Durability durability) => (SqliteStore)KeyValueStore.Open(Options(durability));

    private Task<long> RunQueuedBehindAnotherProcess(SqliteStore store, params Action[] writes) => QueuedWriters.RunBehindAnotherProcess(
        ["hold-sqlite-write-lock", StorePath, "Sqlite", "-", "3000"], () => store.Writes.CombinedCommits, () => store.Writes.PendingWrites, writes);

    // Changes the stored checksum of a pair from outside the store: reading the pair is then a damage error.
    private static void BreakChecksum(string storePath, byte[] key)
    {
        using var connection = new SqliteConnection($"Data Source={Path.Combine(storePath, SqliteStore.DatabaseFile)};Pooling=False");
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = "UPDATE kv SET c = c + 1 WHERE k = $k";
        command.Parameters.AddWithValue("$k", key);
        Assert.Equal(1, command.ExecuteNonQuery());
    }

    private static byte[] Key(string tag, int i)
    {
        var key = new byte[tag.Length + 5];
        System.Text.Encoding.ASCII.GetBytes(tag + "/").CopyTo(key, 0);
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(tag.Length + 1), i);
        return key;
    }
}
