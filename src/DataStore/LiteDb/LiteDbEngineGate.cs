namespace DataStore.LiteDb;

/// <summary>
/// Makes the store's calls into LiteDB take turns. LiteDB 5 is not safe for concurrent use once a store outgrows what
/// it keeps in memory (issue 20 part 6: at 1,000,000 keys and 4-8 threads, raw LiteDB 5.0.20 threw
/// IndexOutOfRangeException in FindById, reported intact pages as damaged, then refused every call with "Maximum number
/// of transactions reached"). So point reads, each batch a scan reads, each write transaction and maintenance run one
/// at a time, and at most <see cref="MaxOpenScans"/> scans hold a LiteDB read transaction at once (LiteDB allows 100
/// open transactions in all).
/// </summary>
internal sealed class LiteDbEngineGate(string directory, TimeSpan timeout)
{
    /// <summary>Scans that may be open at once; one more waits, up to the store's timeout, for one to close.</summary>
    public const int MaxOpenScans = 64;

    /// <summary>The most queued point reads one turn runs besides its own.</summary>
    public const int ReadsPerTurn = 16;

    /// <summary>How long a queued point read sleeps before it looks again, should a wake-up be missed.</summary>
    private static readonly TimeSpan ReadPoll = TimeSpan.FromMilliseconds(1);

    private readonly Lock _engine = new();
    private readonly System.Collections.Concurrent.ConcurrentQueue<LiteDbPointRead> _reads = new();
    private readonly SemaphoreSlim _scans = new(MaxOpenScans, MaxOpenScans);
    private readonly object _snapshotsChanged = new();
    private int _snapshots;

    /// <summary>Point reads waiting for a turn.</summary>
    public int QueuedReads => _reads.Count;

    /// <summary>Enters the engine's turn; dispose the scope to leave it.</summary>
    public Turn Engine()
    {
        _engine.Enter();
        return new Turn(this);
    }

    /// <summary>
    /// Runs <paramref name="read"/> in the engine's turn, on this thread or on the thread of the point read that holds the
    /// turn; returns once it ran (its failure, if any, is kept in it).
    /// </summary>
    public void Read(LiteDbPointRead read)
    {
        if (_engine.TryEnter())
        {
            try
            {
                read.Run();
                RunQueuedReads();
            }
            finally
            {
                Leave();
            }

            return;
        }

        _reads.Enqueue(read);
        while (true)
        {
            read.ResetSignal();
            if (read.IsDone)
            {
                return;
            }

            if (_engine.TryEnter())
            {
                try
                {
                    RunQueuedReads();
                }
                finally
                {
                    Leave();
                }

                continue;
            }

            read.WaitForSignal(ReadPoll);
        }
    }

    private void RunQueuedReads()
    {
        for (var i = 0; i < ReadsPerTurn && _reads.TryDequeue(out var read); i++)
        {
            read.Run();
        }
    }

    private void Leave()
    {
        _engine.Exit();
        if (_reads.TryPeek(out var next))
        {
            next.Signal();
        }
    }

    /// <summary>Takes a scan slot, waiting up to the timeout.</summary>
    /// <exception cref="StoreTimeoutException">Every slot stayed taken for the whole timeout.</exception>
    public void EnterScan()
    {
        if (!_scans.Wait(timeout))
        {
            throw new StoreTimeoutException(directory, StoreBackend.LiteDb, timeout,
                $"{MaxOpenScans} scans of this store stayed open for the whole timeout ({timeout.TotalSeconds:0.###} s); LiteDB allows a bounded number of open transactions. Dispose scans when done with them.");
        }
    }

    /// <summary>Gives a scan slot back.</summary>
    public void ExitScan() => _scans.Release();

    /// <summary>Counts a scan's read transaction as open; call under the write lock, as the scan takes its snapshot.</summary>
    public void SnapshotOpened()
    {
        lock (_snapshotsChanged)
        {
            _snapshots++;
        }
    }

    /// <summary>Counts a scan's read transaction as ended.</summary>
    public void SnapshotClosed()
    {
        lock (_snapshotsChanged)
        {
            _snapshots--;
            Monitor.PulseAll(_snapshotsChanged);
        }
    }

    /// <summary>
    /// Waits up to the timeout for every scan's read transaction to end; false if some stay open. The caller holds the
    /// write lock, so no scan takes a snapshot meanwhile (Compact, which replaces the engine under the scans).
    /// </summary>
    public bool WaitUntilNoSnapshots()
    {
        var deadline = DateTime.UtcNow + timeout;
        lock (_snapshotsChanged)
        {
            while (_snapshots > 0)
            {
                var left = deadline - DateTime.UtcNow;
                if (left <= TimeSpan.Zero || (!Monitor.Wait(_snapshotsChanged, left) && _snapshots > 0))
                {
                    return false;
                }
            }
        }

        return true;
    }

    /// <summary>The engine's turn, held until disposed.</summary>
    public readonly struct Turn(LiteDbEngineGate gate) : IDisposable
    {
        public void Dispose() => gate.Leave();
    }
}
