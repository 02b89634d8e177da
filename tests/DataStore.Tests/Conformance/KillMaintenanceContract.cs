using System.Globalization;

namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 9 and issue 20, part 2: a process killed (SIGKILL) in the middle of compact, backup or migrate leaves the
/// source store whole (opens, every pair, verifies clean), and every destination that exists is a whole store: a
/// copy cut short is a hidden staging directory, never a partial store at the destination. Seeded; the seed is in
/// every failure message.
/// </summary>
public abstract class KillMaintenanceContract : StoreContract
{
    private const string Rule = "9: a process killed during maintenance leaves whole stores";
    private const int Pairs = 1_500;
    private const int Rounds = 3;

    [Theory]
    [InlineData("compact")]
    [InlineData("backup")]
    [InlineData("migrate")]
    public async Task A_kill_during_maintenance_leaves_the_store_and_every_destination_whole(string operation)
    {
        RequireCapability(StoreCapabilities.Persistent | StoreCapabilities.SelfDescribing, Rule);
        Assert.SkipWhen(operation == "migrate" && !KeyValueStore.IsAvailable(StoreBackend.Lmdb) && Backend == StoreBackend.Sqlite, "migrate from Sqlite goes to Lmdb, which is not available here");
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        using (var store = Open())
        {
            var batch = new WriteBatch();
            for (var i = 0; i < Pairs; i++)
            {
                batch.Put(Bytes.Utf8($"pair/{i:D5}"), Bytes.Random(200, i));
            }

            store.Write(batch);
        }

        for (var round = 0; round < Rounds; round++)
        {
            var context = $"{operation}, seed {seed}, round {round}";
            var target = Directory.Sub($"target-{round}");
            using (var child = ChildProcess.Start(["maintenance-loop", StorePath, Backend.ToString(), "-", operation, target]))
            {
                child.WaitForLine(l => l == "READY", TimeSpan.FromSeconds(60));
                Thread.Sleep(random.Next(0, 1_500));
                child.KillHard();
                Assert.DoesNotContain("ERROR", child.Output, StringComparison.Ordinal);
            }

            await CheckWholeAsync(StorePath, context);
            foreach (var destination in System.IO.Directory.EnumerateDirectories(Directory.Path, $"target-{round}-*"))
            {
                await CheckWholeAsync(destination, $"{context}, destination {Path.GetFileName(destination)}");
            }
        }
    }

    private static async Task CheckWholeAsync(string path, string context)
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, CreateIfMissing = false, Timeout = TimeSpan.FromSeconds(30) });
        var pairs = StoreAssert.Scan(store, []);
        Assert.True(pairs.Count == Pairs, $"{pairs.Count} pairs instead of {Pairs} ({context})");
        for (var i = 0; i < Pairs; i++)
        {
            Assert.True(pairs[i].Value.AsSpan().SequenceEqual(Bytes.Random(200, i)), $"pair {i.ToString(CultureInfo.InvariantCulture)} changed ({context})");
        }

        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.True(report.IsHealthy, $"{string.Join("; ", report.Problems)} ({context})");
    }
}
