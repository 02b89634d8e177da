using System.Text;
using DataStore;
using DataStore.ChangeFeed;

namespace DataStore.TestHost;

/// <summary>
/// Writes to a store after a power loss (the power-loss test's reader, once the replayed store was read): three Puts and a
/// 2-key batch, then closes it, reopens it and checks it verifies clean and holds them, and with the change feed that the
/// log goes on from where it was, one record per commit under the next numbers. Returns the problems, empty when none.
/// </summary>
internal static class PowerLossRewrite
{
    private static readonly string[] Expected = ["Put rewrite/1", "Put rewrite/2", "Put rewrite/3", "Put rewrite/b/a Put rewrite/b/b"];

    public static string Run(StoreBackend backend, string directory)
    {
        var problems = new List<string>();
        try
        {
            long? before;
            using (var store = Open(backend, directory))
            {
                before = Sequence(store);
                for (var k = 1; k <= 3; k++)
                {
                    store.Put(Encoding.ASCII.GetBytes($"rewrite/{k}"), [(byte)k]);
                }

                store.Write(new WriteBatch().Put("rewrite/b/a"u8, [4]).Put("rewrite/b/b"u8, [4]));
            }

            using var reopened = Open(backend, directory);
            problems.AddRange(reopened.VerifyAsync().GetAwaiter().GetResult().Problems.Select(p => $"verify after reopening: {p}"));
            foreach (var (key, value) in new[] { ("rewrite/1", 1), ("rewrite/2", 2), ("rewrite/3", 3), ("rewrite/b/a", 4), ("rewrite/b/b", 4) })
            {
                if (reopened.Get(Encoding.ASCII.GetBytes(key)) is not [var held] || held != value)
                {
                    problems.Add($"{key} was written and is not there after reopening");
                }
            }

            if (before is { } after)
            {
                problems.AddRange(LogProblems(reopened, after));
            }
        }
#pragma warning disable CA1031 // every failure is the answer for this store, printed for the test to judge
        catch (Exception e)
#pragma warning restore CA1031
        {
            problems.Add($"{e.GetType().Name} {e.Message}");
        }

        return string.Join(" | ", problems).ReplaceLineEndings(" ");
    }

    // The four commits made after `after`, as a subscriber resuming there gets them: the next four numbers, in order.
    private static List<string> LogProblems(IKeyValueStore store, long after)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var got = store.Watch([], after, timeout.Token).ToBlockingEnumerable(timeout.Token).Take(Expected.Length)
            .Select(c => $"{c.Kind} {c.Sequence}: {string.Join(' ', c.Changes.Select(k => $"{k.Kind} {Encoding.ASCII.GetString(k.Key)}"))}").ToList();
        var expected = Expected.Select((changes, i) => $"{StoreChangeKind.Commit} {after + 1 + i}: {changes}").ToList();
        var problems = got.SequenceEqual(expected) ? [] : new List<string> { $"the log after the new writes is [{string.Join("; ", got)}], not [{string.Join("; ", expected)}]" };
        if (store.ChangeSequence() != after + Expected.Length)
        {
            problems.Add($"the latest sequence is {store.ChangeSequence()}, not {after + Expected.Length}");
        }

        return problems;
    }

    private static long? Sequence(IKeyValueStore store) => store is IChangeFeedStore { ChangeFeedOn: true } ? store.ChangeSequence() : null;

    private static IKeyValueStore Open(StoreBackend backend, string directory) =>
        KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend, Timeout = TimeSpan.FromSeconds(10) });
}
