using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The power-loss test's reader, <c>power-loss-read - backend - dir...</c>: opens each replayed store in turn (in this
/// process, so that a store that crashes its reader costs this process, not the test's) and prints
/// <c>STORE i</c>, then <c>ERROR type message</c> or every pair (<c>PAIR keyhex valuehex</c>) and
/// <c>VERIFY problems</c> (empty when healthy), then <c>END i</c>.
/// </summary>
internal static class PowerLossRead
{
    public static int Run(StoreBackend backend, IReadOnlyList<string> directories)
    {
        for (var i = 0; i < directories.Count; i++)
        {
            Console.WriteLine($"STORE {i}");
            try
            {
                using var store = KeyValueStore.Open(new DataStoreOptions { Path = directories[i], Backend = backend, Timeout = TimeSpan.FromSeconds(10) });
                foreach (var (key, value) in store.EnumeratePrefix([]))
                {
                    Console.WriteLine($"PAIR {Convert.ToHexString(key)} {Convert.ToHexString(value)}");
                }

                var report = store.VerifyAsync().GetAwaiter().GetResult();
                Console.WriteLine($"VERIFY {string.Join(" | ", report.Problems).ReplaceLineEndings(" ")}");
            }
#pragma warning disable CA1031 // every failure is the answer for this store, printed for the test to judge
            catch (Exception e)
#pragma warning restore CA1031
            {
                Console.WriteLine($"ERROR {e.GetType().Name} {e.Message.ReplaceLineEndings(" ")}");
            }

            Console.WriteLine($"END {i}");
        }

        return 0;
    }
}
