using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Api;

/// <summary>
/// Issue 20 item 5: a seeded loop of random calls with random and hostile arguments over the public surface of
/// <see cref="IKeyValueStore"/>, its extension methods, <see cref="WriteBatch"/> and the long operations, each run on
/// the store and on an InMemory model. Every call must do what the model did (same result, or the same documented
/// exception: the ArgumentException family, a DataStoreException, ObjectDisposedException, OperationCanceledException),
/// and after every call the store must hold exactly what the model holds: a refused call changed nothing. No file may
/// appear outside the store's directory (keys such as <c>../../etc/passwd</c>). The store is reopened every
/// <see cref="ReopenEvery"/> calls and finally disposed, after which every call must throw ObjectDisposedException.
/// CI runs <see cref="DefaultIterations"/> calls a backend; <c>DATASTORE_API_FUZZ_ITERATIONS=n</c> runs more,
/// <c>DATASTORE_API_FUZZ_SEED=n</c> replays a printed seed.
/// </summary>
public abstract class PublicApiFuzzContract : StoreContract
{
    public const int DefaultIterations = 250;
    private const int ReopenEvery = 100;

    [Fact]
    public void Random_and_hostile_calls_match_the_model_and_change_nothing_when_refused()
    {
        var seed = Setting("DATASTORE_API_FUZZ_SEED") ?? Random.Shared.Next();
        var iterations = Setting("DATASTORE_API_FUZZ_ITERATIONS") ?? DefaultIterations;
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}{(ThroughOwner ? " client" : "")}: {iterations} calls, seed {seed} (DATASTORE_API_FUZZ_SEED={seed} replays it)");
        var random = new Random(seed);
        var inputs = new ApiFuzzInputs(random, largeOneIn: 150);
        using var model = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        var operations = new ApiFuzzOperations(random, inputs, model);
        var scratch = Directory.Sub("scratch");
        System.IO.Directory.CreateDirectory(scratch);
        var maintenance = new ApiFuzzMaintenance(random, inputs, scratch);

        // Nested, so a key that escaped the store as a path (../../x) would land inside this test's directory.
        var path = Directory.Sub(Path.Combine("d1", "d2", "d3", "d4", "store"));
        var store = Open(path: path);
        var persistent = store.Capabilities.HasFlag(StoreCapabilities.Persistent);
        var outside = FilesOutside(path, scratch);
        for (var step = 0; step < iterations; step++)
        {
            var context = $"seed {seed}, step {step}";
            if (persistent && random.Next(40) == 0)
            {
                Backup(maintenance.Backup(path), store, model, context);
            }
            else
            {
                var call = random.Next(25) == 0 ? maintenance.Next() : operations.Next();
                var actual = ApiOutcome.Of(() => call.Run(store));
                var expected = ApiOutcome.Of(() => call.Run(model));
                Assert.False(actual.StartsWith(ApiOutcome.Unexpected, StringComparison.Ordinal), $"{context}: {call.Name} on {Backend}: {actual}");
                Assert.False(expected.StartsWith(ApiOutcome.Unexpected, StringComparison.Ordinal), $"{context}: {call.Name} on the model: {expected}");
                Assert.True(actual == expected, $"{context}: {call.Name} on {Backend} gave '{Short(actual)}', the model '{Short(expected)}'");
                AssertSameContents(store, model, $"{context}, after {call.Name} ({Short(actual)})");
            }

            if (persistent && (step + 1) % ReopenEvery == 0)
            {
                store.Dispose();
                store = Open(path: path);
                AssertSameContents(store, model, $"{context}, after reopening");
                Assert.Equal(outside, FilesOutside(path, scratch));
            }
        }

        Assert.Equal(outside, FilesOutside(path, scratch));
        store.Dispose();
        for (var i = 0; i < 40; i++)
        {
            var call = operations.Next();
            var outcome = ApiOutcome.Of(() => call.Run(store));
            var nothingRead = outcome == "ok " && call.Name.Contains(".Take(0)", StringComparison.Ordinal); // an enumerable opens its scan when enumerated
            Assert.True(nothingRead || outcome == "throws ObjectDisposedException" || outcome.StartsWith("throws argument ", StringComparison.Ordinal),
                $"seed {seed}: {call.Name} on a disposed {Backend} store gave '{Short(outcome)}'");
        }
    }

    // A backup to a new directory must open as the model's contents; any refusal must be documented and leave the store as it was.
    private void Backup((string Name, string? Destination, Func<IKeyValueStore, string> Run) backup, IKeyValueStore store, IKeyValueStore model, string context)
    {
        var outcome = ApiOutcome.Of(() => backup.Run(store));
        Assert.False(outcome.StartsWith(ApiOutcome.Unexpected, StringComparison.Ordinal), $"{context}: {backup.Name} on {Backend}: {outcome}");
        AssertSameContents(store, model, $"{context}, after {backup.Name} ({Short(outcome)})");
        if (backup.Destination is null || !outcome.StartsWith("ok", StringComparison.Ordinal))
        {
            Assert.True(backup.Destination is null || !System.IO.Directory.Exists(backup.Destination) || !System.IO.Directory.EnumerateFileSystemEntries(backup.Destination).Any(),
                $"{context}: {backup.Name} failed ({Short(outcome)}) but left files at its destination");
            return;
        }

        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = backup.Destination, CreateIfMissing = false });
        AssertSameContents(copy, model, $"{context}, the backup made by {backup.Name}");
    }

    private static void AssertSameContents(IKeyValueStore store, IKeyValueStore model, string context)
    {
        var actual = StoreAssert.Scan(store, []);
        var expected = StoreAssert.Scan(model, []);
        for (var i = 0; i < Math.Min(actual.Count, expected.Count); i++)
        {
            Assert.True(actual[i].Key.AsSpan().SequenceEqual(expected[i].Key) && actual[i].Value.AsSpan().SequenceEqual(expected[i].Value),
                $"{context}: pair {i} is {ApiOutcome.Show(actual[i].Key)}={ApiOutcome.Show(actual[i].Value)}, the model has {ApiOutcome.Show(expected[i].Key)}={ApiOutcome.Show(expected[i].Value)}");
        }

        Assert.True(actual.Count == expected.Count, $"{context}: the store holds {actual.Count} pairs, the model {expected.Count}");
    }

    // Every file and directory under the test's directory, except the store's own tree and the scratch directory.
    private List<string> FilesOutside(string store, string scratch) =>
        [.. System.IO.Directory.EnumerateFileSystemEntries(Directory.Path, "*", SearchOption.AllDirectories)
            .Where(p => !p.StartsWith(store, StringComparison.Ordinal) && !p.StartsWith(scratch, StringComparison.Ordinal) && !p.Contains("probe-", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)];

    private static string Short(string outcome) => outcome.Length <= 400 ? outcome : outcome[..400] + "...";

    private static int? Setting(string name) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : null;
}
