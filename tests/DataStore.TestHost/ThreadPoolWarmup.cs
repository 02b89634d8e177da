namespace DataStore.TestHost;

internal static class ThreadPoolWarmup
{
    /// <summary>
    /// Starts 16 thread-pool threads and leaves them idle (the pool keeps an idle thread about 20 s): on a loaded machine the
    /// pool adds threads while the descriptors are used up, and the runtime ends a process whose new thread finds no
    /// descriptor ("Out of memory."), which is the runtime's, not the store's.
    /// </summary>
    public static void Run()
    {
        const int threads = 16;
        ThreadPool.GetMinThreads(out var workers, out var completions);
        ThreadPool.SetMinThreads(Math.Max(workers, threads), completions);
        var started = new CountdownEvent(threads); // not disposed: a thread may still be inside Signal or Wait when Run returns
        var release = new ManualResetEventSlim();
        for (var i = 0; i < threads; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(_ =>
            {
                started.Signal();
                release.Wait();
            }, null);
        }

        started.Wait();
        release.Set();
    }
}
