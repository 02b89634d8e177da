using LiteDB;

namespace DataStore.LiteDb;

/// <summary>
/// The LiteDB side of a scan, on a thread of its own: LiteDB binds a transaction (and its read lock) to the thread
/// that began it, while a cursor may be used, and disposed, from any thread. The thread begins a read transaction
/// (the scan's snapshot, taken under the store's write lock so both collections show the same commit), reads
/// pairs in batches when the cursor asks, and ends the transaction when the cursor closes.
/// </summary>
internal sealed class LiteDbScan
{
    private const int BatchPairs = 256;
    private const long BatchBytes = 4 << 20;

    private readonly object _gate = new();
    private LiteDbTable _table = null!;
    private readonly byte[] _start;
    private readonly byte[] _end;
    private readonly bool _keysOnly;
    private readonly Thread _thread;
    private List<KeyValuePair<byte[], byte[]>>? _batch;
    private bool _last;
    private bool _wanted;
    private bool _closing;
    private Exception? _error;
    private List<KeyValuePair<byte[], byte[]>>? _firstBatch;

    // Reader state, owned by the scan thread.
    private IBsonDataReader? _reader;
    private BsonDocument? _pending;
    private readonly Queue<KeyValuePair<byte[], byte[]>> _ready = new();

    /// <summary>Starts the scan's thread and waits for its snapshot and first batch; <paramref name="table"/> is asked for under the write lock (Compact replaces it).</summary>
    public LiteDbScan(Func<LiteDbTable> table, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly, Action<Action> underWriteLock)
    {
        _start = start.ToArray();
        _end = end.ToArray();
        _keysOnly = keysOnly;
        _thread = new Thread(() => Run(table, underWriteLock)) { IsBackground = true, Name = "DataStore LiteDb scan" };
        _thread.Start();
        _firstBatch = Take(out _);
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

    /// <summary>Ends the transaction and the thread; waits for both.</summary>
    public void Close()
    {
        lock (_gate)
        {
            _closing = true;
            Monitor.PulseAll(_gate);
        }

        _thread.Join();
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
                _table = table();
                engine = _table.Engine;
                began = engine.BeginTrans();
                _table.Touch();
                _reader = _table.Range(LiteDbKeys.LowId(_start), _end.Length == 0 ? null : LiteDbKeys.HighId(_end));
            });

            while (true)
            {
                var batch = Fill(out var last);
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
        catch (Exception e)
        {
            lock (_gate)
            {
                _error = e;
                Monitor.PulseAll(_gate);
            }
        }
        finally
        {
            _reader?.Dispose();
            if (began)
            {
                engine!.Rollback();
            }
        }
    }

    private List<KeyValuePair<byte[], byte[]>> Fill(out bool last)
    {
        var batch = new List<KeyValuePair<byte[], byte[]>>();
        long bytes = 0;
        last = false;
        while (batch.Count < BatchPairs && bytes < BatchBytes)
        {
            if (_ready.Count == 0 && !Advance())
            {
                last = true;
                break;
            }

            var pair = _ready.Dequeue();
            if (_end.Length > 0 && pair.Key.AsSpan().SequenceCompareTo(_end) >= 0)
            {
                last = true;
                break;
            }

            batch.Add(pair);
            bytes += pair.Key.Length + pair.Value.Length;
        }

        return batch;
    }

    // Reads the next document, or the next whole run of long keys sorted by key, into _ready; false at the end.
    private bool Advance()
    {
        while (true)
        {
            var doc = NextDocument();
            if (doc is null)
            {
                return false;
            }

            var id = doc["_id"].AsBinary;
            if (!LiteDbKeys.IsLongId(id))
            {
                if (Enqueue(doc))
                {
                    return true;
                }

                continue;
            }

            var run = new List<BsonDocument> { doc };
            while (NextDocument() is { } next)
            {
                if (!LiteDbKeys.SameRun(id, next["_id"].AsBinary))
                {
                    _pending = next;
                    break;
                }

                run.Add(next);
            }

            run.Sort((a, b) => a["k"].AsBinary.AsSpan().SequenceCompareTo(b["k"].AsBinary));
            var any = false;
            foreach (var member in run)
            {
                any |= Enqueue(member);
            }

            if (any)
            {
                return true;
            }
        }
    }

    private BsonDocument? NextDocument()
    {
        if (_pending is { } pending)
        {
            _pending = null;
            return pending;
        }

        return _reader!.Read() ? _reader.Current.AsDocument : null;
    }

    // Queues a document's pair when its key is at or after the start; the end is checked as pairs leave.
    private bool Enqueue(BsonDocument doc)
    {
        var key = LiteDbTable.KeyOf(doc);
        if (key.AsSpan().SequenceCompareTo(_start) < 0)
        {
            return false;
        }

        byte[] value;
        if (_keysOnly)
        {
            value = [];
        }
        else if (!LiteDbTable.IsChunked(doc))
        {
            value = _table.CheckedInlineValue(doc, key);
        }
        else
        {
            value = new byte[LiteDbTable.ValueLength(doc)];
            if (!_table.TryCopyValue(doc, value))
            {
                throw new InvalidDataException($"the chunks of a {value.Length}-byte value are missing from the store's snapshot.");
            }

            _table.ThrowIfDamaged(doc, key, value);
        }

        _ready.Enqueue(new KeyValuePair<byte[], byte[]>(key, value));
        return true;
    }
}
