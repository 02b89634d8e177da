using System.Buffers.Binary;
using DataStore.Lmdb;

namespace DataStore.ChangeFeed.Lmdb;

/// <summary>
/// The LMDB part of the change feed: the named database <c>feed</c> beside the pairs' (<see cref="LmdbEnvironment.FeedDbi"/>),
/// one record per commit under its sequence as an 8-byte big-endian key, written by the environment's write loop in the
/// commit's own write transaction (each caller of a combined transaction gets its own record). The sequence is the last
/// record's plus one, read inside the write transaction, which one process at a time holds, so the processes sharing the
/// store never give one number twice; pruning keeps the latest record, so it survives restarts, Compact and backup.
/// </summary>
internal sealed unsafe class LmdbChangeLog(LmdbEnvironment env, LmdbErrors errors) : IChangeLog
{
    private const int KeyLength = sizeof(long);

    /// <summary>Adds <paramref name="record"/> as the next sequence's, inside the write transaction <paramref name="txn"/>.</summary>
    /// <exception cref="LmdbException">LMDB failed (a full map included, which the write loop grows and retries).</exception>
    public static void Append(nint txn, uint feedDbi, ReadOnlySpan<byte> record) => AppendAt(txn, feedDbi, Latest(txn, feedDbi) + 1, record);

    /// <summary>Inside a write transaction: adds an empty record <paramref name="gap"/> past the latest (<see cref="ChangeLogRestart"/>); returns -1.</summary>
    public static long AppendRestart(nint txn, uint feedDbi, long gap)
    {
        AppendAt(txn, feedDbi, Latest(txn, feedDbi) + gap, []);
        return -1;
    }

    private static void AppendAt(nint txn, uint feedDbi, long sequence, ReadOnlySpan<byte> record)
    {
        Span<byte> key = stackalloc byte[KeyLength];
        BinaryPrimitives.WriteInt64BigEndian(key, sequence);
        fixed (byte* k = key, r = record)
        {
            var keyVal = new LmdbNative.Val(k, KeyLength);
            var data = new LmdbNative.Val(r, record.Length);
            LmdbException.Check(LmdbNative.Put(txn, feedDbi, &keyVal, &data, LmdbNative.Append));
        }
    }

    /// <summary>Inside a write transaction: removes every record but the latest <paramref name="retain"/>; returns how many went.</summary>
    public static long Prune(nint txn, uint feedDbi, int retain)
    {
        var last = Latest(txn, feedDbi);
        LmdbException.Check(LmdbNative.CursorOpen(txn, feedDbi, out var cursor));
        try
        {
            long removed = 0;
            LmdbNative.Val key, data;
            var rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.First);
            while (rc == LmdbNative.Success && Sequence(key) <= last - Math.Max(retain, 1))
            {
                LmdbException.Check(LmdbNative.CursorDel(cursor, 0));
                removed++;
                rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.Next); // after a delete, the record that followed
            }

            if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
            {
                LmdbException.Throw(rc);
            }

            return removed;
        }
        finally
        {
            LmdbNative.CursorClose(cursor);
        }
    }

    public ChangeLogPage Read(long after, int max)
    {
        var txn = env.BeginRead(errors, out var seat);
        try
        {
            var records = new List<ChangeLogEntry>();
            if (max > 0 && after < long.MaxValue)
            {
                ReadAfter(txn, after, max, records);
            }

            return new ChangeLogPage(records, Latest(txn, env.FeedDbi));
        }
        catch (LmdbException e)
        {
            throw errors.Translate(e.Code, "reading the change log");
        }
        finally
        {
            env.EndRead(seat, txn);
        }
    }

    void IChangeLog.Prune(int retain)
    {
        Span<byte> count = stackalloc byte[sizeof(int)];
        BinaryPrimitives.WriteInt32LittleEndian(count, retain);
        _ = env.Write(errors, Writes.WriteKind.PruneFeed, default, count, null, out _);
    }

    /// <summary>In the environment's write loop, under the writer locks of every process; then waits for a sync that covers it.</summary>
    public void AppendRestart(long gap)
    {
        Span<byte> bytes = stackalloc byte[sizeof(long)];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, gap);
        _ = env.Write(errors, Writes.WriteKind.RestartFeed, default, bytes, null, out var ticket);
        try
        {
            env.Sync.WaitUntilSynced(ticket);
        }
        catch (LmdbException e)
        {
            throw errors.Translate(e.Code, "syncing the change log's restart");
        }
    }

    public void Dispose()
    {
        // The environment owns the database; nothing of the log's own stays open between calls.
    }

    private void ReadAfter(nint txn, long after, int max, List<ChangeLogEntry> records)
    {
        LmdbException.Check(LmdbNative.CursorOpen(txn, env.FeedDbi, out var cursor));
        try
        {
            Span<byte> from = stackalloc byte[KeyLength];
            BinaryPrimitives.WriteInt64BigEndian(from, after + 1);
            fixed (byte* f = from)
            {
                var key = new LmdbNative.Val(f, KeyLength);
                LmdbNative.Val data;
                var rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.SetRange);
                while (rc == LmdbNative.Success && records.Count < max)
                {
                    records.Add(new ChangeLogEntry(Sequence(key), data.Span.ToArray()));
                    rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.Next);
                }

                if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
                {
                    LmdbException.Throw(rc);
                }
            }
        }
        finally
        {
            LmdbNative.CursorClose(cursor);
        }
    }

    // The last record's sequence, 0 for an empty log.
    private static long Latest(nint txn, uint feedDbi)
    {
        LmdbException.Check(LmdbNative.CursorOpen(txn, feedDbi, out var cursor));
        try
        {
            LmdbNative.Val key, data;
            var rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.Last);
            if (rc == LmdbNative.NotFound)
            {
                return 0;
            }

            LmdbException.Check(rc);
            return Sequence(key);
        }
        finally
        {
            LmdbNative.CursorClose(cursor);
        }
    }

    // A key the log did not write (not 8 bytes, or not a positive number) is damage, reported as LMDB's own.
    private static long Sequence(LmdbNative.Val key)
    {
        var sequence = key.Size == KeyLength ? BinaryPrimitives.ReadInt64BigEndian(key.Span) : 0;
        if (sequence <= 0)
        {
            LmdbException.Throw(LmdbNative.Corrupted);
        }

        return sequence;
    }
}
