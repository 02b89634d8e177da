namespace DataStore.Transfer;

/// <summary>Writes a stream of pairs into a store in atomic batches bounded by bytes and by pairs.</summary>
internal sealed class BatchSink
{
    /// <summary>A batch is committed once it holds this many key and value bytes.</summary>
    public const long MaxBatchBytes = 8 << 20;

    /// <summary>A batch is committed once it holds this many pairs.</summary>
    public const int MaxBatchPairs = 50_000;

    private readonly IKeyValueStore _store;
    private readonly WriteBatch _batch = new();
    private long _batchBytes;

    public BatchSink(IKeyValueStore store)
    {
        _store = store;
    }

    /// <summary>Pairs committed to the store so far.</summary>
    public long Committed { get; private set; }

    /// <summary>Adds a pair, committing the batch when it is full.</summary>
    public void Add(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        _batch.Put(key, value);
        _batchBytes += key.Length + value.Length;
        if (_batch.Count >= MaxBatchPairs || _batchBytes >= MaxBatchBytes)
        {
            Flush();
        }
    }

    /// <summary>Commits what the batch holds.</summary>
    public void Flush()
    {
        if (_batch.Count == 0)
        {
            return;
        }

        _store.Write(_batch);
        Committed += _batch.Count;
        _batch.Clear();
        _batchBytes = 0;
    }
}
