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

    private readonly Lock _engine = new();
    private readonly SemaphoreSlim _scans = new(MaxOpenScans, MaxOpenScans);
    private readonly object _snapshotsChanged = new();
    private int _snapshots;

    /// <summary>Enters the engine's turn; dispose the scope to leave it.</summary>
    public Lock.Scope Engine() => _engine.EnterScope();

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
}
