namespace DataStore.Tests.Writes;

/// <summary>
/// Makes writers meet in a store's write queue: a child process holds the engine's write lock while each write starts on
/// its own thread and queues, then releases it, so the writes are sure to be combined.
/// </summary>
/// <remarks>
/// Each write runs on a dedicated thread and the test's thread waits without awaiting, so nothing here needs a thread-pool
/// thread: in a parallel suite under load the pool can take longer than <see cref="Wait"/> to start a queued work item.
/// </remarks>
internal static class QueuedWriters
{
    public static readonly TimeSpan Wait = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Runs <paramref name="writes"/> behind the child started with <paramref name="holder"/> (which prints <c>LOCKED</c>, then
    /// releases the lock and exits 0), each queued before the next starts (<paramref name="pending"/> counts the queue);
    /// returns how many combined commits that made (<paramref name="combinedCommits"/>, before and after).
    /// </summary>
    public static long RunBehindAnotherProcess(string[] holder, Func<long> combinedCommits, Func<int> pending, params Action[] writes)
    {
        var before = combinedCommits();
        using var child = ChildProcess.Start(holder);
        child.WaitForLine(l => l == "LOCKED", Wait);
        var tasks = new List<Task>();
        foreach (var write in writes)
        {
            tasks.Add(OnItsOwnThread(write));
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while (pending() < tasks.Count)
            {
                Assert.True(clock.Elapsed < Wait, $"{tasks.Count} writes did not queue");
                Thread.Sleep(5);
            }
        }

        Assert.False(tasks.Exists(t => t.IsCompleted), "a write finished while another process held the write lock");
        var all = Task.WhenAll(tasks);
        Assert.True(((IAsyncResult)all).AsyncWaitHandle.WaitOne(Wait), "the queued writes did not finish once the lock was released");
        all.GetAwaiter().GetResult(); // a write's own exception, unwrapped
        Assert.Equal(0, child.WaitForExit(Wait));
        return combinedCommits() - before;
    }

    /// <summary>Starts <paramref name="write"/> on a thread of its own (not the pool's).</summary>
    public static Task OnItsOwnThread(Action write) =>
        Task.Factory.StartNew(write, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
}
