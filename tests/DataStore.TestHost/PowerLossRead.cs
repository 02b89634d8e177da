using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The power-loss test's reader, <c>power-loss-read - backend - dir...</c>: opens each replayed store in turn (in this
/// process, so that a store that crashes its reader costs this process, not the test's) and prints
/// <c>STORE i</c>, then <c>ERROR type message</c> or every pair (<c>PAIR keyhex valuehex</c>) and
/// <c>VERIFY problems</c> (empty when healthy), for a store with the change feed its latest sequence (<c>FEED n</c>), every
/// logged change from the first (<c>EVENT sequence kind keyhex endhex</c>, <c>RESYNC sequence</c> and <c>AFTER-RESYNC ...</c>
/// where the log was restarted, or <c>EVENTS-ERROR type message</c>) and the
/// sequence a new commit gets (<c>NEXT n</c>: one Put of <c>probe/</c>, made after everything else was read), then for a
/// directory given as <c>+dir</c> and a store that opened, <c>REWRITE problems</c> (<see cref="PowerLossRewrite"/>), then <c>END i</c>.
/// </summary>
internal static class PowerLossRead
{
    public static int Run(StoreBackend backend, IReadOnlyList<string> directories)
    {
        for (var i = 0; i < directories.Count; i++)
        {
            Console.WriteLine($"STORE {i}");
            var rewrite = directories[i].StartsWith('+');
            var directory = rewrite ? directories[i][1..] : directories[i];
            if (Read(backend, directory) && rewrite)
            {
                Console.WriteLine($"REWRITE {PowerLossRewrite.Run(backend, directory)}");
            }

            Console.WriteLine($"END {i}");
        }

        return 0;
    }

    // Prints what the store holds; false when it did not open or read.
    private static bool Read(StoreBackend backend, string directory)
    {
        try
        {
            using var store = KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend, Timeout = TimeSpan.FromSeconds(10) });
            foreach (var (key, value) in store.EnumeratePrefix([]))
            {
                Console.WriteLine($"PAIR {Convert.ToHexString(key)} {Convert.ToHexString(value)}");
            }

            var report = store.VerifyAsync().GetAwaiter().GetResult();
            Console.WriteLine($"VERIFY {string.Join(" | ", report.Problems).ReplaceLineEndings(" ")}");
            if (store is DataStore.ChangeFeed.IChangeFeedStore { ChangeFeedOn: true })
            {
                PrintEvents(store);
                store.Put("probe/"u8, "p"u8);
                Console.WriteLine($"NEXT {store.ChangeSequence()}");
            }

            return true;
        }
#pragma warning disable CA1031 // every failure is the answer for this store, printed for the test to judge
        catch (Exception e)
#pragma warning restore CA1031
        {
            Console.WriteLine($"ERROR {e.GetType().Name} {e.Message.ReplaceLineEndings(" ")}");
            return false;
        }
    }

    private static void PrintEvents(IKeyValueStore store)
    {
        try
        {
            var latest = store.ChangeSequence();
            Console.WriteLine($"FEED {latest}");
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            var events = latest == 0 ? AsyncEnumerable.Empty<StoreChange>() : store.Watch([], 0, timeout.Token);
            foreach (var change in events.ToBlockingEnumerable(timeout.Token))
            {
                if (change.Kind == StoreChangeKind.Resynchronize)
                {
                    PrintResynchronize(store, change.Sequence, timeout.Token);
                }

                foreach (var key in change.Changes)
                {
                    Console.WriteLine($"EVENT {change.Sequence} {key.Kind} {Convert.ToHexString(key.Key)} {Convert.ToHexString(key.End)}");
                }

                if (change.Sequence >= latest)
                {
                    break;
                }
            }
        }
#pragma warning disable CA1031 // printed for the test to judge
        catch (Exception e)
#pragma warning restore CA1031
        {
            Console.WriteLine($"EVENTS-ERROR {e.GetType().Name} {e.Message.ReplaceLineEndings(" ")}");
        }
    }

    /// <summary>
    /// A log restarted after the power loss (<c>RESYNC sequence</c>): one Put of <c>feed-check</c> must then be the next
    /// commit a subscriber resuming from that sequence gets (<c>AFTER-RESYNC kind sequence keyhex...</c>).
    /// </summary>
    private static void PrintResynchronize(IKeyValueStore store, long sequence, CancellationToken cancellationToken)
    {
        Console.WriteLine($"RESYNC {sequence}");
        store.Put("feed-check"u8, [1]);
        var next = store.Watch([], sequence, cancellationToken).ToBlockingEnumerable(cancellationToken).First();
        Console.WriteLine($"AFTER-RESYNC {next.Kind} {next.Sequence} {string.Join(' ', next.Changes.Select(c => $"{c.Kind}:{Convert.ToHexString(c.Key)}"))}");
    }
}
