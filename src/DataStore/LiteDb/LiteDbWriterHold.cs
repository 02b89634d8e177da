using DataStore.Sync;

namespace DataStore.LiteDb;

/// <summary>
/// Holds the store's writer lock (a monitor, so owned by the thread that took it) on a thread of its own until
/// disposed, from any thread: writers wait meanwhile, each up to the store's timeout.
/// </summary>
internal sealed class LiteDbWriterHold : IDisposable
{
    private readonly ManualResetEventSlim _release = new();
    private readonly Thread _thread;
    private int _disposed;

    private LiteDbWriterHold(StoreWriterLock writeLock, TaskCompletionSource taken)
    {
        _thread = new Thread(() => Hold(writeLock, taken)) { IsBackground = true, Name = "DataStore LiteDb writer hold" };
    }

    /// <summary>Enters <paramref name="writeLock"/> (which throws on timeout) on the new thread; returns once it is held.</summary>
    public static LiteDbWriterHold Take(StoreWriterLock writeLock)
    {
        var taken = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var hold = new LiteDbWriterHold(writeLock, taken);
        try
        {
            Platform.LibraryThreads.Start(hold._thread);
        }
        catch (IOException)
        {
            hold._release.Dispose();
            throw;
        }

        try
        {
            taken.Task.GetAwaiter().GetResult();
        }
        catch
        {
            hold._thread.Join();
            hold._release.Dispose();
            throw;
        }

        return hold;
    }

    /// <summary>Lets the lock go and waits until it has.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _release.Set();
        _thread.Join();
        _release.Dispose();
    }

    private void Hold(StoreWriterLock writeLock, TaskCompletionSource taken)
    {
        try
        {
            writeLock.Enter();
        }
        catch (Exception e)
        {
            taken.SetException(e);
            return;
        }

        try
        {
            taken.SetResult();
            _release.Wait();
        }
        finally
        {
            writeLock.Exit();
        }
    }
}
