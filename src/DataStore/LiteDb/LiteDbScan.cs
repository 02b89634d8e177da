namespace DataStore.LiteDb;

/// <summary>
/// The LiteDB side of a scan, on a thread of its own for the scan's life (<see cref="LiteDbScanThreads"/>): LiteDB binds a
/// transaction (and its read lock) to the thread that began it, while a cursor may be used, and disposed, from any
/// thread. The thread begins a read transaction
/// (the scan's snapshot, taken under the store's write lock so both collections show the same commit), reads
/// pairs in batches when the cursor asks, and ends the transaction when the cursor closes. Each call into LiteDB
/// takes its turn at the store's <see cref="LiteDbEngineGate"/>, and the scan holds one of its slots while it lives.
/// </summary>
internal sealed class LiteDbScan
{
    private readonly object _gate = new();
    private readonly LiteDbEngineGate _engine;
    private readonly byte[] _start;
    private readonly byte[] _end;
    private readonly bool _keysOnly;
    private bool _finished;
    private List<KeyValuePair<byte[], byte[]>>? _batch;
    private bool _last;
    private bool _wanted;
    private bool _closing;
    private Exception? _error;
    private List<KeyValuePair<byte[], byte[]>>? _firstBatch;
    private LiteDbScanReader? _reader; // owned by the scan thread

    /// <summary>Starts the scan's thread and waits for its snapshot and first batch; <paramref name="table"/> is asked for under the write lock (Compact replaces it).</summary>
    /// <exception cref="StoreTimeoutException">No scan slot came free within the timeout.</exception>
    public LiteDbScan(LiteDbEngineGate engine, Func<LiteDbTable> table, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly, Action<Action> underWriteLock)
    {
        _engine = engine;
        _start = start.ToArray();
        _end = end.ToArray();
        _keysOnly = keysOnly;
        engine.EnterScan(); // given back as the scan's work ends
        try
        {
            LiteDbScanThreads.Start(() => Run(table, underWriteLock));
        }
        catch (IOException)
        {
            engine.ExitScan();
            throw;
        }

        _firstBatch = Take(out _);
    }

    /// <summary>How many documents the scan has read from LiteDB so far (for tests); read it between batches.</summary>
    internal int DocumentsRead
    {
        get
        {
            lock (_gate)
            {
                return _reader?.DocumentsRead ?? 0;
            }
        }
    }

    /// <summary>The next batch of pairs (copies); <paramref name="last"/> is true when none follow.</summary>
    public List<KeyValuePair<byte[], byte[]>> Next(out bool last)
    {
        if (_firstBatch is { } first)
        {
            _firstBatch = null;
            lock (_gate)
            {
                last = _last;
            }

            return first;
        }

        lock (_gate)
        {
            _wanted = true;
            Monitor.PulseAll(_gate);
        }

        return Take(out last);
    }

    /// <summary>Ends the transaction and the scan's work on its thread; waits for both.</summary>
    public void Close()
    {
        lock (_gate)
        {
            _closing = true;
            Monitor.PulseAll(_gate);
            while (!_finished)
            {
                Monitor.Wait(_gate);
            }
        }
    }

    private List<KeyValuePair<byte[], byte[]>> Take(out bool last)
    {
        lock (_gate)
        {
            while (_batch is null && _error is null)
            {
                if (_closing)
                {
                    throw new ObjectDisposedException(nameof(IKeyValueCursor), "The scan was closed because its store was disposed.");
                }

                Monitor.Wait(_gate);
            }

            if (_error is { } error)
            {
                _closing = true;
                Monitor.PulseAll(_gate);
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(error);
            }

            var batch = _batch!;
            _batch = null;
            last = _last;
            return batch;
        }
    }

    private void Run(Func<LiteDbTable> table, Action<Action> underWriteLock)
    {
        LiteDB.Engine.LiteEngine? engine = null;
        var began = false;
        try
        {
            underWriteLock(() =>
            {
                using var turn = _engine.Engine();
                var current = table();
                engine = current.Engine;
                began = engine.BeginTrans();
                if (!began)
                {
                    // The thread still had a transaction (a scan before failed to end its own): never read through an
                    // older snapshot.
                    engine.Rollback();
                    began = engine.BeginTrans();
                }

                _engine.SnapshotOpened();
                current.Touch();
                _reader = new LiteDbScanReader(current, _start, _end, _keysOnly);
            });

            while (true)
            {
                List<KeyValuePair<byte[], byte[]>> batch;
                bool last;
                using (_engine.Engine())
                {
                    batch = _reader!.Fill(out last);
                }

                lock (_gate)
                {
                    _batch = batch;
                    _last = last;
                    Monitor.PulseAll(_gate);
                    if (last)
                    {
                        break;
                    }

                    while (!_wanted && !_closing)
                    {
                        Monitor.Wait(_gate);
                    }

                    _wanted = false;
                    if (_closing)
                    {
                        break;
                    }
                }
            }

            lock (_gate)
            {
                while (!_closing)
                {
                    Monitor.Wait(_gate);
                }
            }
        }
        catch (Exception e) when (e is NullReferenceException or InvalidCastException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            // The scan reads its own snapshot, so a document it cannot take apart came malformed from the file.
            Fail(new InvalidDataException($"a document read from the file is malformed ({e.GetType().Name}: {e.Message}).", e));
        }
        catch (Exception e)
        {
            Fail(e);
        }
        finally
        {
            End(engine, began);
            _engine.ExitScan();
            lock (_gate)
            {
                _finished = true;
                Monitor.PulseAll(_gate);
            }
        }
    }

    // Hands a failure to the cursor's thread: no exception may escape this thread (it would end the process).
    private void Fail(Exception e)
    {
        lock (_gate)
        {
            _error ??= e;
            Monitor.PulseAll(_gate);
        }
    }

    // Ends the reader and the read transaction. An engine that met damage closes itself, and then these throw too.
    private void End(LiteDB.Engine.LiteEngine? engine, bool began)
    {
        using var turn = _engine.Engine();
        try
        {
            _reader?.Dispose();
            if (began)
            {
                engine!.Rollback();
            }
        }
        catch (Exception e)
        {
            Fail(e);
        }
        finally
        {
            if (began)
            {
                _engine.SnapshotClosed();
            }
        }
    }
}
