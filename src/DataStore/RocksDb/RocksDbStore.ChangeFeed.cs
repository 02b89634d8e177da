using System.Runtime.InteropServices;
using DataStore.ChangeFeed;
using Microsoft.Extensions.Logging;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

// The change feed (ADR 0020): while it is on, every write holds the gate exclusively and carries its record in its own
// WriteBatch (RocksDbChangeLog); the column families beside the default one are opened with the store and closed with it.
internal sealed unsafe partial class RocksDbStore : IChangeFeedStore, IRestartMarkedStore
{
    private readonly ChangeRecord _record = new();
    private readonly List<IntPtr> _families = [];
    private IntPtr _feedFamily;
    private RocksDbChangeLog? _log;
    private ChangeFeedState? _feed;

    public bool ChangeFeedOn => _feed is not null;

    public bool MarksRestart => _feed is not null;

    public bool ClosedCleanly => true; // a close that fails throws from Dispose(bool)

    /// <summary>The store's write options (its durability).</summary>
    internal IntPtr WriteOptions => _writeOptions;

    public void StartChangeFeed(ChangeFeedSettings settings, ILogger logger)
    {
        EnsureWritable(); // the feed's column family, and every write from now on
        _log = RocksDbChangeLog.Open(this, _feedFamily, _options.Handle);
        // sync = true (Durable) publishes a commit's sequence only after its WAL sync.
        ChangeLogRestart.Prepare(_log, _directory, StoreBackend.RocksDb, shownBeforeSynced: _durability != Durability.Durable);
        _feed = ChangeFeedState.Start(_log, _directory, settings, logger);
    }

    public ChangeLogPage ReadChanges(long after, int max) => ChangeLogReads.InCall(this, () =>
    {
        try
        {
            return _log!.Read(after, max);
        }
        catch (InvalidDataException e)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, _directory, StoreBackend.RocksDb, $"the change log is damaged ({e.Message}).", e);
        }
    });

    /// <summary>Takes over a column family handle, destroyed when the store closes.</summary>
    internal void Adopt(IntPtr family) => _families.Add(family);

    // The handles rocksdb_open_column_families gave, in the order of the names it was given.
    private void Adopt(IReadOnlyList<string> names, IntPtr[] handles)
    {
        for (var i = 0; i < handles.Length; i++)
        {
            _families.Add(handles[i]);
            if (names[i] == RocksDbChangeLog.Family)
            {
                _feedFamily = handles[i];
            }
        }
    }

    // A Put or a Delete with the feed on: one WriteBatch with its record, under the gate held exclusively.
    private void WriteLogged(bool put, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        EnterWrite(exclusive: true);
        try
        {
            using var batch = new RocksDbBatch(this);
            fixed (byte* k = key)
            fixed (byte* v = value)
            {
                if (put)
                {
                    Rocks.rocksdb_writebatch_put(batch.Handle, k, (UIntPtr)key.Length, NonNull(v), (UIntPtr)value.Length);
                }
                else
                {
                    Rocks.rocksdb_writebatch_delete(batch.Handle, k, (UIntPtr)key.Length);
                }
            }

            _log!.Append(batch.Handle, _record.Clear().Add(put ? KeyChangeKind.Put : KeyChangeKind.Delete, key).Bytes);
            Commit(batch, put ? "Put" : "Delete");
        }
        finally
        {
            ExitWrite(exclusive: true);
        }

        _feed!.Committed();
    }

    // Called by Dispose after the last call: the last prune, the log's flush, then every family handle (before the close).
    private void CloseChangeLog()
    {
        _feed?.Dispose();
        _log?.Flush();

        foreach (var family in _families)
        {
            Rocks.rocksdb_column_family_handle_destroy(family);
        }

        _families.Clear();
    }

    /// <summary>The column families of the store in <paramref name="directory"/> other than the default one (none for a new store).</summary>
    private static string[] ExistingFamilies(string directory, RocksDbOptions options)
    {
        var error = IntPtr.Zero;
        var list = Rocks.rocksdb_list_column_families(options.Handle, directory, out var count, out error);
        if (error != IntPtr.Zero)
        {
            RocksDbErrors.TakeMessage(error); // no store yet (or one the open reports on)
            return [];
        }

        try
        {
            var names = new List<string>();
            for (var i = 0; i < (int)count; i++)
            {
                var name = Marshal.PtrToStringUTF8(Marshal.ReadIntPtr(list, i * IntPtr.Size))!;
                if (name != "default")
                {
                    names.Add(name);
                }
            }

            return [.. names];
        }
        finally
        {
            Rocks.rocksdb_list_column_families_destroy(list, count);
        }
    }
}
