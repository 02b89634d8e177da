using System.Buffers;

namespace DataStore.Lmdb;

/// <summary>
/// A scan over [start, end) on its own read transaction, begun when the scan opens: it sees the store as of that
/// moment. Pairs are copied out of the map in batches (<see cref="LmdbScanBatch"/>) that <see cref="MoveNext"/> then
/// hands out, so the map may be remapped (grown) between visits, even by a write on the thread that holds the
/// cursor; after a remap the cursor repositions itself after the last stored key it read, in the same snapshot. The
/// native cursor is renewed from the environment's idle ones (<see cref="LmdbEnvironment.OpenCursor"/>) and kept again
/// when the scan is disposed.
/// </summary>
/// <remarks>Long keys that share their first <see cref="LmdbKeys.PlainMax"/> bytes are read as a group and sorted in memory.</remarks>
internal sealed unsafe partial class LmdbCursor : IKeyValueCursor
{
    // A scan often stops after a few pairs (an existence check, a page of results, YCSB E's 1-100): it takes one pair
    // a visit at first, then reads ahead an eighth of what it has read so far, so it never copies and checks more
    // than an eighth past the pairs it handed out (doubling batches of 4, 8, ... read 74 pairs for 50 asked).
    private const int ReadAheadShare = 8;
    private const int MaxBatchPairs = 256;

    private readonly LmdbScanBatch _batch = new();
    private readonly LmdbEnvironment _env;
    private readonly LmdbErrors _errors;
    private readonly bool _keysOnly;
    private readonly bool _checksums;
    private readonly byte[] _start;
    private readonly byte[] _end;
    private nint _txn;
    private readonly nint _cursor;
    private int _epoch;
    private bool _started;
    private bool _reposition;
    private bool _resume;
    private bool _done;
    private bool _onPair;
    private bool _endAfterGroup;
    private bool _lastBatch;
    private bool _pastStart;
    private int _batchLimit = 1;
    private byte[] _lastStored = ArrayPool<byte>.Shared.Rent(64);
    private int _lastStoredLength;
    private List<(byte[] Key, byte[] Value)>? _group;
    private int _groupIndex;

    public LmdbCursor(LmdbEnvironment env, LmdbErrors errors, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        _env = env;
        _errors = errors;
        _keysOnly = keysOnly;
        _checksums = env.Checksums && !keysOnly;
        _start = start.ToArray();
        _end = end.ToArray();
        env.AddCursor();
        try
        {
            _txn = env.BeginRead(errors, out var seat);
            try
            {
                errors.Check(env.OpenCursor(seat, _txn, out _cursor), "opening a cursor");
                _epoch = env.Gate.Epoch;
            }
            catch
            {
                env.EndRead(seat, _txn);
                _txn = 0;
                throw;
            }

            env.Gate.Exit(seat);
        }
        catch
        {
            env.RemoveCursor();
            ReturnBuffers();
            throw;
        }
    }

    /// <summary>How many pairs this scan has copied out of the map so far (for tests: a scan reads about what it is asked for).</summary>
    internal long PairsRead { get; private set; }

    public ReadOnlySpan<byte> Key => _onPair
        ? (_group is null ? _batch.Key : _group[_groupIndex].Key)
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public ReadOnlySpan<byte> Value => _onPair
        ? (_group is null ? _batch.Value : _group[_groupIndex].Value)
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public bool MoveNext()
    {
        // Most calls hand out the next pair of the batch: a disposed, finished or failed scan has an empty batch.
        if (_group is null && _batch.MoveNext())
        {
            return _onPair = true;
        }

        return MoveToNextVisit();
    }

    private bool MoveToNextVisit()
    {
        ObjectDisposedException.ThrowIf(_txn == 0, this);
        _onPair = false;
        if (_done)
        {
            return false;
        }

        if (_group is not null)
        {
            if (++_groupIndex < _group.Count)
            {
                return _onPair = true;
            }

            _group = null;
            if (_endAfterGroup)
            {
                _done = true;
                return false;
            }
        }

        if (_batch.MoveNext())
        {
            return _onPair = true;
        }

        if (_lastBatch)
        {
            _done = true;
            return false;
        }

        var seat = _env.Gate.Enter();
        try
        {
            Fill();
            _batch.Verify(_errors.Directory);
        }
        catch (LmdbException e)
        {
            throw _errors.Translate(e.Code, "scanning");
        }
        finally
        {
            _env.Gate.Exit(seat);
        }

        _onPair = _group is not null || _batch.MoveNext();
        _done = !_onPair;
        return _onPair;
    }

    public void Dispose()
    {
        if (_txn == 0)
        {
            return;
        }

        _onPair = false;
        var seat = _env.Gate.Enter();
        _env.KeepCursor(seat, _cursor);
        _env.EndRead(seat, _txn);
        _txn = 0;
        _env.RemoveCursor();
        ReturnBuffers();
    }

    // Inside the gate: copies the next pairs in range into the batch (up to the batch limit), or reads a group of
    // long keys. The cursor stays on the last pair taken, or on a pair it did not take (one that did not fit, or a
    // group of long keys after some pairs), marked for the next visit to start there (Position).
    private void Fill()
    {
        _batch.Clear();
        LmdbNative.Val key, data;
        var rc = Position(&key, &data);
        ReadOnlySpan<byte> previous = _lastStored.AsSpan(0, _lastStoredLength);
        while (rc == LmdbNative.Success)
        {
            var stored = key.Span;
            ThrowIfNotAfter(stored, previous);
            if (LmdbKeys.IsSlot(stored))
            {
                if (_batch.Count > 0)
                {
                    _resume = true;
                    break;
                }

                if (ReadGroup(&key, &data, ref rc) || _endAfterGroup)
                {
                    _lastBatch = _endAfterGroup;
                    return;
                }

                previous = _lastStored.AsSpan(0, _lastStoredLength);
                continue;
            }

            // Stored keys ascend: once one plain key is at or after the start, every later one is.
            if (_pastStart || (_pastStart = stored.SequenceCompareTo(_start) >= 0))
            {
                if (_end.Length > 0 && Compare(stored, _end) >= 0)
                {
                    _lastBatch = true;
                    break;
                }

                var added = _checksums ? _batch.TryAddChecked(stored, data.Span, _errors.Directory) : _batch.TryAdd(stored, _keysOnly ? default : data.Span);
                if (!added)
                {
                    _resume = true;
                    break;
                }
            }

            previous = stored;
            if (_batch.Count == _batchLimit)
            {
                break;
            }

            rc = LmdbNative.CursorGet(_cursor, &key, &data, LmdbNative.Next);
        }

        if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
        {
            LmdbException.Throw(rc);
        }

        _lastBatch |= rc == LmdbNative.NotFound;
        PairsRead += _batch.Count;
        _batchLimit = (int)Math.Clamp(PairsRead / ReadAheadShare, 1, MaxBatchPairs);
        Copy(previous, ref _lastStored, out _lastStoredLength);
    }

    private static void Copy(ReadOnlySpan<byte> source, ref byte[] buffer, out int length)
    {
        if (source.Length > buffer.Length)
        {
            ArrayPool<byte>.Shared.Return(buffer);
            buffer = ArrayPool<byte>.Shared.Rent(source.Length);
        }

        source.CopyTo(buffer);
        length = source.Length;
    }

    private void ReturnBuffers()
    {
        _batch.Dispose();
        ArrayPool<byte>.Shared.Return(_lastStored);
        _lastStored = [];
    }
}
