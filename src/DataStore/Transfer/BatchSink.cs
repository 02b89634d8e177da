using System.Diagnostics;

namespace DataStore.Transfer;

/// <summary>
/// Writes a stream of pairs into a store in atomic batches bounded by bytes, by pairs, and by time: each batch holds
/// as many pairs as the store committed in <see cref="TargetCommitTime"/> at the rate of the previous commit, so on a
/// slow backend (FileSystem writes a file per pair) a cancelled import or migration waits for well under a second of
/// work, while a fast one still commits large batches.
/// </summary>
internal sealed class BatchSink
{
    /// <summary>A batch is committed once it holds this many key and value bytes.</summary>
    public const long MaxBatchBytes = 8 << 20;

    /// <summary>A batch is committed once it holds this many pairs.</summary>
    public const int MaxBatchPairs = 50_000;

    /// <summary>The fewest pairs a batch is sized for (the first batch too), however slow the store.</summary>
    public const int MinBatchPairs = 256;

    /// <summary>How long a commit should take, at the rate the previous one ran.</summary>
    public static readonly TimeSpan TargetCommitTime = TimeSpan.FromMilliseconds(250);

    private readonly IKeyValueStore _store;
    private readonly WriteBatch _batch = new();
    private long _batchBytes;
    private int _batchPairs = MinBatchPairs;

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
        if (_batch.Count >= _batchPairs || _batchBytes >= MaxBatchBytes)
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

        var started = Stopwatch.GetTimestamp();
        _store.Write(_batch);
        var seconds = Math.Max(Stopwatch.GetElapsedTime(started).TotalSeconds, 1e-6);
        _batchPairs = (int)Math.Clamp(_batch.Count / seconds * TargetCommitTime.TotalSeconds, MinBatchPairs, MaxBatchPairs);
        Committed += _batch.Count;
        _batch.Clear();
        _batchBytes = 0;
    }
}
