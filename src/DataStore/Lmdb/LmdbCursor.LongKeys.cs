namespace DataStore.Lmdb;

// Long keys: their slots share a stem, so a scan reads each group of them whole and sorts it by full key.
internal sealed unsafe partial class LmdbCursor
{
    // Reads every slot sharing the current one's prefix, keeps those in range, sorted by whole key. Leaves the pair
    // after the group in key/data (and rc), and marks the cursor to reposition after the group's last slot.
    private bool ReadGroup(LmdbNative.Val* key, LmdbNative.Val* data, ref int rc)
    {
        var prefix = key->Span[..LmdbKeys.PlainMax].ToArray();
        var group = new List<(byte[] Key, byte[] Value)>();
        while (rc == LmdbNative.Success && LmdbKeys.IsSlot(key->Span) && key->Span.StartsWith(prefix))
        {
            var stored = key->Span;
            ThrowIfNotAfter(stored, _lastStored.AsSpan(0, _lastStoredLength));
            var full = LmdbKeys.FullKey(stored, data->Span);
            var inRange = full.SequenceCompareTo(_start) >= 0 && (_end.Length == 0 || full.SequenceCompareTo(_end) < 0);
            if (inRange)
            {
                group.Add((full.ToArray(), _keysOnly ? [] : LmdbPairs.Checked(full, LmdbKeys.Value(stored, data->Span), _env.Checksums, _errors.Directory).ToArray()));
            }
            else if (full.SequenceCompareTo(_start) >= 0)
            {
                _endAfterGroup = true;
            }

            Copy(stored, ref _lastStored, out _lastStoredLength);
            rc = LmdbNative.CursorGet(_cursor, key, data, LmdbNative.Next);
        }

        if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
        {
            LmdbException.Throw(rc);
        }

        if (group.Count == 0)
        {
            return false;
        }

        PairsRead += group.Count;
        group.Sort((a, b) => a.Key.AsSpan().SequenceCompareTo(b.Key));
        _group = group;
        _groupIndex = 0;
        _reposition = true;
        return true;
    }
}
