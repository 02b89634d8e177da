using System.Buffers.Binary;
using DataStore.ChangeFeed;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// The RocksDb part of the change feed: a column family <c>feed</c> beside the default one that holds the pairs (so no user
/// key can collide with it, and no scan, count, export or verify of the pairs reads it), one entry per commit, its key the
/// sequence as 8 big-endian bytes and its value the record, put into the commit's own <c>WriteBatch</c>. The store writes
/// with its gate held exclusively while the feed is on, so sequence order is commit order; the latest sequence is read at
/// open, then counted under the gate.
/// </summary>
internal sealed unsafe class RocksDbChangeLog : IChangeLog
{
    /// <summary>The log's column family.</summary>
    public const string Family = "feed";

    private readonly RocksDbStore _store;
    private readonly IntPtr _family;
    private long _latest;
    private long _appended;

    private RocksDbChangeLog(RocksDbStore store, IntPtr family)
    {
        _store = store;
        _family = family;
        _latest = Read(long.MaxValue, 0).Latest;
    }

    /// <summary>Opens the log in <paramref name="family"/> (the handle the store opened), or creates the family when the store has none yet.</summary>
    public static RocksDbChangeLog Open(RocksDbStore store, IntPtr family, IntPtr options)
    {
        if (family == IntPtr.Zero)
        {
            var error = IntPtr.Zero;
            family = Rocks.rocksdb_create_column_family(store.Db, options, Family, out error);
            RocksDbErrors.ThrowIf(error, store.Path, "Creating the change log's column family");
            store.Adopt(family);
        }

        return new RocksDbChangeLog(store, family);
    }

    /// <summary>Puts the record of the commit being built into <paramref name="batch"/>; call with the store's gate held exclusively.</summary>
    public void Append(IntPtr batch, ReadOnlySpan<byte> record) => Append(batch, 0, record);

    // The record numbered `skipped` past the next sequence.
    private void Append(IntPtr batch, long skipped, ReadOnlySpan<byte> record)
    {
        _appended = _latest + 1 + skipped;
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, _appended);
        fixed (byte* k = key)
        fixed (byte* r = record)
        {
            Rocks.rocksdb_writebatch_put_cf(batch, _family, k, (UIntPtr)8, RocksDbStore.NonNull(r), (UIntPtr)record.Length);
        }
    }

    /// <summary>
    /// At open, before the store's first write (the owner process is the only writer): the restart record in its own batch,
    /// written with <c>sync = true</c> whatever the store's durability.
    /// </summary>
    public void AppendRestart(long gap)
    {
        using var batch = new RocksDbBatch(_store);
        _latest = Read(long.MaxValue, 0).Latest;
        Append(batch.Handle, gap - 1, []);
        var options = Rocks.rocksdb_writeoptions_create();
        try
        {
            Rocks.rocksdb_writeoptions_set_sync(options, 1);
            var error = IntPtr.Zero;
            Rocks.rocksdb_write(_store.Db, options, batch.Handle, out error);
            RocksDbErrors.ThrowIf(error, _store.Path, "Restarting the change log");
        }
        finally
        {
            Rocks.rocksdb_writeoptions_destroy(options);
        }

        Committed();
    }

    /// <summary>The batch holding the last appended record committed; call with the gate still held.</summary>
    public void Committed() => _latest = _appended;

    public ChangeLogPage Read(long after, int max)
    {
        // One iterator reads one implicit snapshot: the latest sequence and the records agree.
        var iterator = Rocks.rocksdb_create_iterator_cf(_store.Db, _store.ReadOptions, _family);
        try
        {
            Rocks.rocksdb_iter_seek_to_last(iterator);
            var latest = Rocks.rocksdb_iter_valid(iterator) != 0 ? SequenceAt(iterator) : 0;
            var records = new List<ChangeLogEntry>();
            if (max > 0 && after < latest)
            {
                Span<byte> start = stackalloc byte[8];
                BinaryPrimitives.WriteInt64BigEndian(start, after + 1);
                fixed (byte* s = start)
                {
                    Rocks.rocksdb_iter_seek(iterator, s, (UIntPtr)8);
                }

                for (; records.Count < max && Rocks.rocksdb_iter_valid(iterator) != 0; Rocks.rocksdb_iter_next(iterator))
                {
                    var value = Rocks.rocksdb_iter_value(iterator, out var length);
                    records.Add(new ChangeLogEntry(SequenceAt(iterator), new ReadOnlySpan<byte>((void*)value, checked((int)length)).ToArray()));
                }
            }

            var error = IntPtr.Zero;
            Rocks.rocksdb_iter_get_error(iterator, out error);
            RocksDbErrors.ThrowIf(error, _store.Path, "Reading the change log");
            return new ChangeLogPage(records, latest);
        }
        finally
        {
            Rocks.rocksdb_iter_destroy(iterator);
        }
    }

    /// <summary>Deletes the records before the latest <paramref name="retain"/> in one range delete; appends go on meanwhile.</summary>
    public void Prune(int retain)
    {
        var last = Read(long.MaxValue, 0).Latest - retain;
        if (last <= 0)
        {
            return;
        }

        Span<byte> start = stackalloc byte[8];
        Span<byte> end = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(end, last + 1);
        var error = IntPtr.Zero;
        fixed (byte* s = start)
        fixed (byte* e = end)
        {
            Rocks.rocksdb_delete_range_cf(_store.Db, _store.WriteOptions, _family, s, (UIntPtr)8, e, (UIntPtr)8, out error);
        }

        RocksDbErrors.ThrowIf(error, _store.Path, "Pruning the change log");
    }

    /// <summary>Writes the log's memtable to a table file, as the store does with the pairs' as it closes.</summary>
    public void Flush() => _ = RocksDbFlush.AndWait(_store.Db, _family); // a failure leaves the records in the WAL

    public void Dispose()
    {
        // The store destroys the family's handle after its last prune, before it closes the database.
    }

    private static long SequenceAt(IntPtr iterator)
    {
        var key = Rocks.rocksdb_iter_key(iterator, out var length);
        return length == 8 ? BinaryPrimitives.ReadInt64BigEndian(new ReadOnlySpan<byte>((void*)key, 8)) : throw new InvalidDataException($"a change-log key of {length} bytes");
    }
}
