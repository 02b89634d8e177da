using System.Collections.Concurrent;

namespace DataStore.FileSystem;

/// <summary>
/// The reader/writer lock of one store across threads and processes: one writer handle pair behind a monitor,
/// and a pool of reader handle pairs so threads read at once. Waits past the configured timeout throw
/// <see cref="StoreTimeoutException"/>.
/// </summary>
internal sealed class StoreLocks(string directory, TimeSpan timeout) : IDisposable
{
    private readonly object _writerGate = new();
    private readonly LockPair _writer = LockPair.Open(directory);
    private readonly ConcurrentBag<LockPair> _readers = [];
    private int _disposed;

    /// <summary>Test hook: runs on this thread before it takes the exclusive lock.</summary>
    [ThreadStatic]
    internal static Action? BeforeWriteLockForTests;

    /// <summary>Takes the exclusive lock for this thread; release with <see cref="ExitWrite"/>.</summary>
    public void EnterWrite()
    {
        BeforeWriteLockForTests?.Invoke();
        var deadline = Deadline();
        if (!Monitor.TryEnter(_writerGate, timeout))
        {
            throw TimedOut();
        }

        try
        {
            ObjectDisposedException.ThrowIf(_disposed != 0, this);
            if (!_writer.Enter(true, deadline))
            {
                throw TimedOut();
            }
        }
        catch
        {
            Monitor.Exit(_writerGate);
            throw;
        }
    }

    /// <summary>Takes the exclusive lock only if no other holder has it or waits for it; false otherwise.</summary>
    public bool TryEnterWrite()
    {
        if (!Monitor.TryEnter(_writerGate))
        {
            return false;
        }

        if (_writer.Enter(true, Environment.TickCount64))
        {
            return true;
        }

        Monitor.Exit(_writerGate);
        return false;
    }

    public void ExitWrite()
    {
        _writer.Exit();
        Monitor.Exit(_writerGate);
    }

    /// <summary>Takes a shared lock; pass the returned pair to <see cref="ExitRead"/>.</summary>
    public LockPair EnterRead()
    {
        ObjectDisposedException.ThrowIf(_disposed != 0, this);
        if (!_readers.TryTake(out var pair))
        {
            pair = LockPair.Open(directory);
        }

        if (!pair.Enter(false, Deadline()))
        {
            Return(pair);
            throw TimedOut();
        }

        return pair;
    }

    public void ExitRead(LockPair pair)
    {
        pair.Exit();
        Return(pair);
    }

    public void Dispose()
    {
        lock (_writerGate)
        {
            _disposed = 1;
            _writer.Dispose();
        }

        while (_readers.TryTake(out var pair))
        {
            pair.Dispose();
        }
    }

    private void Return(LockPair pair)
    {
        _readers.Add(pair);
        if (_disposed != 0 && _readers.TryTake(out var late))
        {
            late.Dispose();
        }
    }

    private long Deadline() => Environment.TickCount64 + (long)timeout.TotalMilliseconds;

    private StoreTimeoutException TimedOut() => new(directory, StoreBackend.FileSystem, timeout);
}
