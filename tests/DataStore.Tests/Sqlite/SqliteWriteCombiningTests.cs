using System.Buffers.Binary;
using System.Globalization;
using DataStore.Sqlite;
using DataStore.Tests.Writes;
using Microsoft.Data.Sqlite;

namespace DataStore.Tests.Sqlite;

/// <summary>
/// Sqlite's combined writes (<see cref="WriteCombiningContract"/>; ADR 0002), with another process holding SQLite's
/// write lock while the callers queue, and Durable puts from many threads killed with SIGKILL.
/// </summary>
public sealed class SqliteWriteCombiningTests : WriteCombiningContract
{
    private static readonly TimeSpan Wait = QueuedWriters.Wait;

    [Fact]
    public void Durable_puts_from_many_threads_survive_kill_9_right_after_they_are_acknowledged()
    {
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        for (var round = 0; round < 3; round++)
        {
            var path = $"{StorePath}-kill-{round}";
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

    protected override IKeyValueStore Open(Durability durability) =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Sqlite, Durability = durability, Timeout = Wait });

    protected override void PutDamagedPair(IKeyValueStore store, byte[] key)
    {
        store.Put(key, "v"u8);
        BreakChecksum(StorePath, key);
    }

    protected override long RunQueuedBehindAnotherProcess(IKeyValueStore store, params Action[] writes) => QueuedWriters.RunBehindAnotherProcess(
        StorePath, StoreBackend.Sqlite, () => ((SqliteStore)store).Writes.CombinedCommits, () => ((SqliteStore)store).Writes.PendingWrites, writes);

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
