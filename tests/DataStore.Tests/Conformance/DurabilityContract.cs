using System.Buffers.Binary;
using System.Globalization;

namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 9: an acknowledged write survives the process being killed (kill -9), at both durability levels, and no
/// batch is ever half applied. Kill points are seeded; the seed is in every failure message.
/// </summary>
public abstract class DurabilityContract : StoreContract
{
    private const string Rule = "9: acknowledged writes survive kill -9";

    [Theory]
    [InlineData(Durability.Relaxed)]
    [InlineData(Durability.Durable)]
    public void Acknowledged_puts_survive_kill_9(Durability durability)
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        for (var round = 0; round < 3; round++)
        {
            var path = Directory.Sub($"puts-{round}");
            var acknowledged = KillAfterAcknowledged(["put-loop", path, Backend.ToString(), durability.ToString(), "round", "100000"], 20 + random.Next(200));

            using var store = KeyValueStore.Open(Options(path));
            for (var i = 1; i <= acknowledged; i++)
            {
                Assert.True(store.HaveKey([.. "round/"u8, .. Number(i)]), $"put {i} of {acknowledged} acknowledged was lost (seed {seed}, round {round})");
            }
        }
    }

    [Theory]
    [InlineData(Durability.Relaxed)]
    [InlineData(Durability.Durable)]
    public void Batches_are_all_or_nothing_after_kill_9(Durability durability)
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        for (var round = 0; round < 3; round++)
        {
            var path = Directory.Sub($"batches-{round}");
            var acknowledged = KillAfterAcknowledged(["batch-loop", path, Backend.ToString(), durability.ToString(), "100000"], 10 + random.Next(150));

            using var store = KeyValueStore.Open(Options(path));
            var a = BinaryPrimitives.ReadInt32BigEndian(store.Get("pair/a"u8));
            var b = BinaryPrimitives.ReadInt32BigEndian(store.Get("pair/b"u8));
            var batches = StoreAssert.Scan(store, "batch/"u8.ToArray(), keysOnly: true).Count;
            Assert.True(a == b && b == batches, $"half a batch after kill -9: a={a} b={b} batch keys={batches} (seed {seed}, round {round})");
            Assert.True(a >= acknowledged, $"batch {acknowledged} was acknowledged but the store holds {a} (seed {seed}, round {round})");
        }
    }

    [Fact]
    public void Durable_writes_from_many_threads_share_syncs_and_all_survive_reopening()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open(o => o.Durability = Durability.Durable);
        Assert.Equal(Durability.Durable, store.Durability);
        Parallel.For(0, 8, new ParallelOptions { MaxDegreeOfParallelism = 8 }, t =>
        {
            for (var i = 0; i < 40; i++)
            {
                if (i % 2 == 0)
                {
                    store.Put([(byte)t, (byte)i], [1]);
                }
                else
                {
                    store.Write(new WriteBatch().Put([(byte)t, (byte)i], [1]));
                }
            }
        });
        store.Dispose();

        using var reopened = KeyValueStore.Open(Options());
        Assert.Equal(320, StoreAssert.Scan(reopened, [], keysOnly: true).Count);
    }

    /// <summary>Starts the host, kills it with SIGKILL once it has acknowledged at least <paramref name="killAfter"/> writes, and returns the last write it acknowledged.</summary>
    private static int KillAfterAcknowledged(string[] args, int killAfter)
    {
        using var child = ChildProcess.Start(args);
        child.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal) && int.Parse(l[4..], CultureInfo.InvariantCulture) >= killAfter, TimeSpan.FromSeconds(60));
        child.KillHard();
        return int.Parse(child.LastLine("ACK ")![4..], CultureInfo.InvariantCulture);
    }

    private static byte[] Number(int i)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, i);
        return bytes;
    }
}
