namespace DataStore.Lmdb;

/// <summary>Point lookups inside a transaction (read or write), hiding how long keys are stored; failures throw <see cref="LmdbException"/>.</summary>
internal static unsafe class LmdbLookup
{
    /// <summary>
    /// Finds <paramref name="key"/>. On return <paramref name="slot"/> (for a long key, <see cref="LmdbKeys.SlotLength"/>
    /// bytes) holds the key's slot when found, or a free slot for it when not; <paramref name="value"/> is the caller's
    /// value, valid until the transaction changes or ends.
    /// </summary>
    public static bool TryFind(nint txn, uint dbi, ReadOnlySpan<byte> key, Span<byte> slot, out LmdbNative.Val value)
    {
        if (!LmdbKeys.IsLong(key))
        {
            fixed (byte* k = key)
            {
                var keyVal = new LmdbNative.Val(k, key.Length);
                LmdbNative.Val data;
                var rc = LmdbNative.Get(txn, dbi, &keyVal, &data);
                if (rc == LmdbNative.NotFound)
                {
                    value = default;
                    return false;
                }

                LmdbException.Check(rc);
                value = data;
                return true;
            }
        }

        return TryFindSlot(txn, dbi, key, slot, out value);
    }

    private static bool TryFindSlot(nint txn, uint dbi, ReadOnlySpan<byte> key, Span<byte> slot, out LmdbNative.Val value)
    {
        LmdbKeys.WriteSlot(key, slot);
        LmdbException.Check(LmdbNative.CursorOpen(txn, dbi, out var cursor));
        try
        {
            var free = 0;
            fixed (byte* s = slot)
            {
                var keyVal = new LmdbNative.Val(s, LmdbKeys.SlotLength);
                LmdbNative.Val data;
                var rc = LmdbNative.CursorGet(cursor, &keyVal, &data, LmdbNative.SetRange);
                while (rc == LmdbNative.Success)
                {
                    var stored = keyVal.Span;
                    if (stored.Length != LmdbKeys.SlotLength || !stored[..LmdbKeys.SlotStemLength].SequenceEqual(slot[..LmdbKeys.SlotStemLength]))
                    {
                        break;
                    }

                    if (LmdbKeys.FullKey(stored, data.Span).SequenceEqual(key))
                    {
                        LmdbKeys.SetCounter(slot, LmdbKeys.Counter(stored));
                        var whole = data.Span;
                        var offset = whole.Length - LmdbKeys.Value(stored, whole).Length;
                        value = new LmdbNative.Val(data.Data + offset, whole.Length - offset);
                        return true;
                    }

                    free = Math.Max(free, LmdbKeys.Counter(stored) + 1);
                    rc = LmdbNative.CursorGet(cursor, &keyVal, &data, LmdbNative.Next);
                }

                if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
                {
                    LmdbException.Throw(rc);
                }
            }

            LmdbKeys.SetCounter(slot, free);
            value = default;
            return false;
        }
        finally
        {
            LmdbNative.CursorClose(cursor);
        }
    }
}
