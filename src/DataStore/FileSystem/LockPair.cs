using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// One holder's handles on the store's two lock files: <c>turn.lock</c>, a turnstile every reader and writer
/// passes through exclusively, and <c>data.lock</c>, shared by readers and exclusive for a writer. A writer waiting
/// for <c>data.lock</c> holds the turnstile, so new readers queue behind it and it is never starved; it lets the
/// turnstile go as soon as it holds <c>data.lock</c>, so readers queue while it writes.
/// </summary>
internal sealed class LockPair(FileLock turn, FileLock data) : IDisposable
{
    public static LockPair Open(string directory) =>
        new(FileLock.Open(Path.Combine(directory, "turn.lock")), FileLock.Open(Path.Combine(directory, "data.lock")));

    /// <summary>Takes <c>data.lock</c> (exclusive for a writer) through the turnstile; false when <paramref name="deadline"/> passed first.</summary>
    public bool Enter(bool exclusive, long deadline)
    {
        if (!Wait(turn, true, deadline))
        {
            return false;
        }

        try
        {
            return Wait(data, exclusive, deadline);
        }
        finally
        {
            turn.Exit();
        }
    }

    public void Exit() => data.Exit();

    public void Dispose()
    {
        turn.Dispose();
        data.Dispose();
    }

    private static bool Wait(FileLock target, bool exclusive, long deadline)
    {
        for (var attempt = 0; ; attempt++)
        {
            if (target.TryEnter(exclusive))
            {
                return true;
            }

            if (Environment.TickCount64 >= deadline)
            {
                return false;
            }

            if (attempt < 20)
            {
                Thread.Yield();
            }
            else
            {
                Thread.Sleep(1);
            }
        }
    }
}
