using DataStore.Batches;

namespace DataStore.Lmdb;

/// <summary>
/// The changes a write transaction makes: puts, deletes, range deletes and batches with their preconditions, with
/// long keys stored as <see cref="LmdbKeys"/> describes. Runs on the writer's thread inside one LMDB write transaction;
/// an LMDB error (map full included) propagates as <see cref="LmdbException"/> so the caller can grow the map and retry.
/// With <paramref name="checksums"/> each value is stored with its pair's checksum after it (<see cref="LmdbPairs"/>).
/// </summary>
internal readonly unsafe struct LmdbWriter(nint txn, uint dbi, bool checksums, string directory) : IBatchOperationVisitor
{
    private const uint Reserve = 0x10000;

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (!LmdbKeys.IsLong(key) && checksums)
        {
            // Reserved space is filled in place: the value is copied once, as LMDB would copy it.
            fixed (byte* k = key)
            {
                var keyVal = new LmdbNative.Val(k, key.Length);
                var data = new LmdbNative.Val(null, value.Length + LmdbPairs.SuffixLength(checksums));
                LmdbException.Check(LmdbNative.Put(txn, dbi, &keyVal, &data, Reserve));
                var target = new Span<byte>(data.Data, (int)data.Size);
                value.CopyTo(target);
                LmdbPairs.WriteSuffix(target, key, value, checksums);
            }

            return;
        }

        if (!LmdbKeys.IsLong(key))
        {
            fixed (byte* k = key, v = value)
            {
                var keyVal = new LmdbNative.Val(k, key.Length);
                var data = new LmdbNative.Val(v, value.Length);
                LmdbException.Check(LmdbNative.Put(txn, dbi, &keyVal, &data, 0));
            }

            return;
        }

        Span<byte> slot = stackalloc byte[LmdbKeys.SlotLength];
        _ = TryFindSlot(key, slot);
        fixed (byte* s = slot)
        {
            var keyVal = new LmdbNative.Val(s, slot.Length);
            var data = new LmdbNative.Val(null, LmdbKeys.HeaderLength + key.Length + value.Length + LmdbPairs.SuffixLength(checksums));
            LmdbException.Check(LmdbNative.Put(txn, dbi, &keyVal, &data, Reserve));
            var target = new Span<byte>(data.Data, (int)data.Size);
            LmdbKeys.WriteSlotValue(target, key, value);
            LmdbPairs.WriteSuffix(target, key, value, checksums);
        }
    }

    public void Delete(ReadOnlySpan<byte> key)
    {
        Span<byte> slot = stackalloc byte[LmdbKeys.SlotLength];
        if (LmdbKeys.IsLong(key) && !TryFindSlot(key, slot))
        {
            return;
        }

        var stored = LmdbKeys.IsLong(key) ? slot : key;
        fixed (byte* k = stored)
        {
            var keyVal = new LmdbNative.Val(k, stored.Length);
            var rc = LmdbNative.Del(txn, dbi, &keyVal, null);
            if (rc != LmdbNative.NotFound)
            {
                LmdbException.Check(rc);
            }
        }
    }

    /// <summary>Removes every key in [start, end) (empty bounds are open) and returns how many went.</summary>
    public long DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        LmdbException.Check(LmdbNative.CursorOpen(txn, dbi, out var cursor));
        try
        {
            long removed = 0;
            var seek = LmdbKeys.SeekKey(start);
            fixed (byte* s = seek)
            {
                var keyVal = new LmdbNative.Val(s, seek.Length);
                LmdbNative.Val data;
                var rc = LmdbNative.CursorGet(cursor, &keyVal, &data, seek.IsEmpty ? LmdbNative.First : LmdbNative.SetRange);
                while (rc == LmdbNative.Success)
                {
                    var stored = keyVal.Span;
                    var full = LmdbKeys.FullKey(stored, data.Span);
                    var beforeEnd = end.IsEmpty || full.SequenceCompareTo(end) < 0;
                    if (!beforeEnd && LmdbKeys.PastEnd(stored, end))
                    {
                        break;
                    }

                    if (beforeEnd && full.SequenceCompareTo(start) >= 0)
                    {
                        LmdbException.Check(LmdbNative.CursorDel(cursor, 0));
                        removed++;
                    }

                    rc = LmdbNative.CursorGet(cursor, &keyVal, &data, LmdbNative.Next);
                }

                if (rc != LmdbNative.NotFound && rc != LmdbNative.Success)
                {
                    LmdbException.Check(rc);
                }
            }

            return removed;
        }
        finally
        {
            LmdbNative.CursorClose(cursor);
        }
    }

    /// <summary>Checks the batch's preconditions and applies its operations; returns -1, or the index of the first failed precondition (nothing applied).</summary>
    public int Write(WriteBatch batch)
    {
        Span<byte> slot = stackalloc byte[LmdbKeys.SlotLength];
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            var condition = batch.Precondition(i);
            var key = batch.First(condition);
            var found = Find(key, slot, out var value);
            var holds = condition.Kind == BatchEntryKind.RequireAbsent
                ? !found
                : found && LmdbPairs.Checked(key, value.Span, checksums, directory).SequenceEqual(batch.Second(condition));
            if (!holds)
            {
                return i;
            }
        }

        var writer = this;
        batch.VisitOperations(ref writer);
        return -1;
    }

    void IBatchOperationVisitor.DeletePrefix(ReadOnlySpan<byte> prefix) => DeleteRange(prefix, KeyOrder.TryGetPrefixEnd(prefix, out var end) ? end : default);

    void IBatchOperationVisitor.DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) => DeleteRange(start, end);

    private bool Find(ReadOnlySpan<byte> key, Span<byte> slot, out LmdbNative.Val value) => LmdbLookup.TryFind(txn, dbi, key, slot, out value);

    private bool TryFindSlot(ReadOnlySpan<byte> key, Span<byte> slot) => Find(key, slot, out _);
}
