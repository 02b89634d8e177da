using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The <c>threaded-put-loop threads count</c> command: <c>threads</c> threads each put <c>t{thread}/{i}</c> = i for
/// i = 1..count as fast as they can, so their writes meet in the writer's queue and commit together, and print
/// <c>ACK thread i</c> once each put returned. The parent kills this process at a random moment.
/// </summary>
internal static class ThreadedPutLoop
{
    public static int Run(IKeyValueStore store, int threads, int count)
    {
        Console.WriteLine("OPENED");
        var workers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
        {
            for (var i = 1; i <= count; i++)
            {
                store.Put(Commands.Key($"t{t}", i), Commands.Number(i));
                Console.WriteLine($"ACK {t} {i}");
            }
        })).ToList();
        workers.ForEach(w => w.Start());
        workers.ForEach(w => w.Join());
        return 0;
    }
}
