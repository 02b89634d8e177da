namespace DataStore.Tests.Writes;

/// <summary>
/// Makes writers meet in a store's write queue: a child process holds the engine's write lock while each write starts on
/// its own thread and queues, then releases it, so the writes are sure to be combined.
/// </summary>
internal static class QueuedWriters
{
    public static readonly TimeSpan Wait = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Runs <paramref name="writes"/> behind the child started with <paramref name="holder"/> (which prints <c>LOCKED</c>, then
    /// releases the lock and exits 0), each queued before the next starts (<paramref name="pending"/> counts the queue);
    /// returns how many combined commits that made (<paramref name="combinedCommits"/>, before and after).
    /// </summary>
    public static async Task<long> RunBehindAnotherProcess(string[] holder, Func<long> combinedCommits, Func<int> pending, params Action[] writes)
    {
        var before = combinedCommits();
        using var child = ChildProcess.Start(holder);
        child.WaitForLine(l => l == "LOCKED", Wait);
        var tasks = new List<Task>();
        foreach (var write in writes)
        {
            tasks.Add(Task.Run(write, TestContext.Current.CancellationToken));
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while (pending() < tasks.Count)
            {
                Assert.True(clock.Elapsed < Wait, $"{tasks.Count} writes did not queue");
                await Task.Delay(5, TestContext.Current.CancellationToken);
            }
        }

        Assert.False(tasks.Exists(t => t.IsCompleted), "a write finished while another process held the write lock");
        await Task.WhenAll(tasks).WaitAsync(Wait, TestContext.Current.CancellationToken);
        Assert.Equal(0, child.WaitForExit(Wait));
        return combinedCommits() - before;
    }
}
