namespace DataStore.Lmdb;

// Where a visit to the map starts: the start bound on the first, then the pair after the last one taken, read again
// when the last visit stopped on it, or sought after a remap.
internal sealed unsafe partial class LmdbCursor
{
    private int Position(LmdbNative.Val* key, LmdbNative.Val* data)
    {
        if (!_started)
        {
            _started = true;
            var seek = LmdbKeys.SeekKey(_start);
            fixed (byte* s = seek)
            {
                *key = new LmdbNative.Val(s, seek.Length);
                return LmdbNative.CursorGet(_cursor, key, data, seek.IsEmpty ? LmdbNative.First : LmdbNative.SetRange);
            }
        }

        var epoch = _env.Gate.Epoch;
        if (epoch == _epoch && !_reposition)
        {
            // The cursor rests on the last pair taken, or on the one after it that the last visit read but left.
            var op = _resume ? LmdbNative.GetCurrent : LmdbNative.Next;
            _resume = false;
            return LmdbNative.CursorGet(_cursor, key, data, op);
        }

        if (epoch != _epoch)
        {
            // The map moved: the cursor's cached pages are stale, its transaction (the snapshot) is not.
            LmdbException.Check(LmdbNative.CursorRenew(_txn, _cursor));
            _epoch = epoch;
        }

        _reposition = _resume = false;
        var last = _lastStored.AsSpan(0, _lastStoredLength);
        fixed (byte* l = last)
        {
            *key = new LmdbNative.Val(l, last.Length);
            var rc = LmdbNative.CursorGet(_cursor, key, data, LmdbNative.SetRange);
            if (rc == LmdbNative.Success && key->Span.SequenceEqual(last))
            {
                rc = LmdbNative.CursorGet(_cursor, key, data, LmdbNative.Next);
            }

            return rc;
        }
    }
}
