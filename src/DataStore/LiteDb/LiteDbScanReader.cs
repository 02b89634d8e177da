using LiteDB;

namespace DataStore.LiteDb;

/// <summary>
/// Reads a scan's pairs in key order from LiteDB, on the scan's thread and inside its read transaction: documents come
/// in id order, and a run of long keys (which share an id prefix) is sorted by the whole key before it is handed out.
/// </summary>
internal sealed class LiteDbScanReader : IDisposable
{
    // A scan often stops after a few pairs (YCSB E reads 1-100; an existence check reads one), and LiteDB takes
    // microseconds a document: the first batch is small and later ones grow, so a scan reads about what it is asked for.
    private const int FirstBatchPairs = 16;
    private const int MaxBatchPairs = 256;
    private const long BatchBytes = 4 << 20;

    private readonly LiteDbTable _table;
    private readonly IBsonDataReader _reader;
    private readonly byte[] _start;
    private readonly byte[] _end;
    private readonly bool _keysOnly;
    private readonly Queue<KeyValuePair<byte[], byte[]>> _ready = new();
    private BsonDocument? _pending;
    private int _batchPairs = FirstBatchPairs;

    /// <summary>Opens the query over [<paramref name="start"/>, <paramref name="end"/>) (empty end: to the last key).</summary>
    public LiteDbScanReader(LiteDbTable table, byte[] start, byte[] end, bool keysOnly)
    {
        _table = table;
        _start = start;
        _end = end;
        _keysOnly = keysOnly;
        _reader = table.Range(LiteDbKeys.LowId(start), end.Length == 0 ? null : LiteDbKeys.HighId(end));
    }

    /// <summary>How many documents this reader has read from LiteDB so far (for tests: a scan reads about what it is asked for).</summary>
    public int DocumentsRead { get; private set; }

    /// <summary>The next batch of pairs (copies); <paramref name="last"/> is true when none follow.</summary>
    public List<KeyValuePair<byte[], byte[]>> Fill(out bool last)
    {
        var batch = new List<KeyValuePair<byte[], byte[]>>(_batchPairs);
        long bytes = 0;
        last = false;
        while (batch.Count < _batchPairs && bytes < BatchBytes)
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

        _batchPairs = Math.Min(_batchPairs * 4, MaxBatchPairs);
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

        if (!_reader.Read())
        {
            return null;
        }

        DocumentsRead++;
        return _reader.Current.AsDocument;
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

    public void Dispose() => _reader.Dispose();
}
