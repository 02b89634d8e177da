namespace DataStore.Lmdb;

// Read cursors kept between scans: a scan renews one on its transaction (mdb_cursor_renew) instead of allocating a
// cursor and freeing it again, as LMDB allows for cursors of read-only transactions. Like the reset read
// transactions, each thread's seat keeps one and a small shared pool keeps the rest.
internal sealed partial class LmdbEnvironment
{
    private readonly LmdbHandlePool _idleCursors = new();

    /// <summary>Inside <see cref="Gate"/>: a read cursor over <see cref="Dbi"/> on <paramref name="txn"/>, renewed when one is kept, else opened.</summary>
    /// <returns>LMDB's code: success, or why no cursor could be opened.</returns>
    public int OpenCursor(LmdbReaderSeat seat, nint txn, out nint cursor)
    {
        cursor = seat.Cursor;
        seat.Cursor = 0;
        if (cursor == 0)
        {
            cursor = _idleCursors.Take();
        }

        // A cursor kept from before the change feed's layout moved the pairs into another database is closed.
        if (cursor != 0 && LmdbNative.CursorDbi(cursor) == Dbi && LmdbNative.CursorRenew(txn, cursor) == LmdbNative.Success)
        {
            return LmdbNative.Success;
        }

        if (cursor != 0)
        {
            LmdbNative.CursorClose(cursor);
        }

        return LmdbNative.CursorOpen(txn, Dbi, out cursor);
    }

    /// <summary>Inside <see cref="Gate"/>: keeps a finished scan's cursor for the next scan (its transaction may be reset after).</summary>
    public void KeepCursor(LmdbReaderSeat seat, nint cursor)
    {
        if (seat.Cursor == 0)
        {
            seat.Cursor = cursor;
            return;
        }

        if (!_idleCursors.TryKeep(cursor))
        {
            LmdbNative.CursorClose(cursor);
        }
    }

    // With no thread inside the gate (closing, or reopening after Compact): frees every kept cursor.
    private void CloseIdleCursors()
    {
        _idleCursors.Drain(LmdbNative.CursorClose);
        foreach (var seat in Gate.Seats())
        {
            if (seat.Cursor != 0)
            {
                LmdbNative.CursorClose(seat.Cursor);
                seat.Cursor = 0;
            }
        }
    }
}
