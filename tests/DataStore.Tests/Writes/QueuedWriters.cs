namespace DataStore.Tests.Writes;

/// <summary>
/// Makes writers meet in a store's write queue: a child process holds the engine's write lock while each write starts on
/// its own thread and queues, and lets it go only when told, once every write has queued, so the writes are sure to be
/// combined.
/// </summary>
/// <remarks>
/// The holder waits for its cue, not for a fixed time: under load the test's process can get no processor for seconds
/// (and the child's <c>LOCKED</c> line reaches it through the thread pool), and a holder that let go after a fixed time
/// could be gone before the first write queued, which then took the lock itself and never showed as queued. Each write
/// runs on a dedicated thread and the test's thread waits without awaiting, so nothing here needs a thread-pool thread.
/// </remarks>
internal static class QueuedWriters
{
    public static readonly TimeSpan Wait = TimeSpan.FromSeconds(30);

    // How long the child may take to start, open the store and take the lock: not what is tested here, so as generous as
    // other tests' waits for a child's first line.
    private static readonly TimeSpan HolderStart = TimeSpan.FromMinutes(2);

    /// <summary>
    /// Runs <paramref name="writes"/> while a child (<c>hold-on-cue</c>) holds the write lock of the store at
    /// <paramref name="storePath"/>, each queued before the next starts (<paramref name="pending"/> counts the queue), then
    /// lets the child release it; returns how many combined commits that made (<paramref name="combinedCommits"/>, before
    /// and after).
    /// </summary>
    public static long RunBehindAnotherProcess(string storePath, StoreBackend backend, Func<long> combinedCommits, Func<int> pending, params Action[] writes)
    {
        var before = combinedCommits();
        using var child = ChildProcess.Start(["hold-on-cue", storePath, backend.ToString(), "-"], input: true);
        child.WaitForLine(l => l == "LOCKED", HolderStart);
        var tasks = new List<Task>();
        foreach (var write in writes)
        {
            tasks.Add(OnItsOwnThread(write));
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while (pending() < tasks.Count)
            {
                AssertNoneFinished(tasks);
                Assert.True(clock.Elapsed < Wait, $"{tasks.Count} writes did not queue");
                Thread.Sleep(5);
            }
        }

        AssertNoneFinished(tasks);
        child.SendLine("release");
        var all = Task.WhenAll(tasks);
        Assert.True(((IAsyncResult)all).AsyncWaitHandle.WaitOne(Wait), "the queued writes did not finish once the lock was released");
        all.GetAwaiter().GetResult(); // a write's own exception, unwrapped
        child.CloseInput();
        Assert.Equal(0, child.WaitForExit(Wait));
        return combinedCommits() - before;
    }

    /// <summary>Starts <paramref name="write"/> on a thread of its own (not the pool's).</summary>
    public static Task OnItsOwnThread(Action write) =>
        Task.Factory.StartNew(write, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    // While the other process holds the lock no write can end: one that did failed (its exception says why) or did not wait.
    private static void AssertNoneFinished(List<Task> tasks)
    {
        var finished = tasks.FindIndex(t => t.IsCompleted);
        Assert.True(finished < 0, finished < 0 ? "" :
            $"write {finished + 1} finished while another process held the write lock: {tasks[finished].Exception?.InnerException?.ToString() ?? "it did not wait"}");
    }
}
