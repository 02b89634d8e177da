using System.Runtime.InteropServices;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// Opens a store read-only when nothing in it awaits recovery, so a process that only reads (a <c>datastore get</c>)
/// writes and syncs nothing: RocksDB's writable open writes a new MANIFEST, CURRENT, OPTIONS file and WAL (about ten
/// fsyncs), and the store then records its WAL sync. The store becomes writable at its first write (ADR 0005, start-up).
/// </summary>
/// <remarks>
/// Taken only when <see cref="RocksDbSyncMark"/> says every write up to the store's last sequence number reached the disk
/// (a clean close, or a background sync after the last write): a store with writes that no sync covered (a killed
/// process) opens writable as before, so RocksDB's recovery moves them into synced table files and the WAL sync is
/// recorded. A read-only RocksDB instance takes no <c>LOCK</c>; that is safe because the backend is opened only by the
/// process holding the store's owner lock (ADR 0015), so no other process writes while it reads.
/// </remarks>
internal static class RocksDbReadOnlyStart
{
    /// <summary>The read-only <c>rocksdb_t</c>, or <see cref="IntPtr.Zero"/> when the store must open writable.</summary>
    public static IntPtr TryOpen(string directory, RocksDbOptions options)
    {
        if (RocksDbSyncMark.Read(directory) is not { } mark)
        {
            return IntPtr.Zero;
        }

        var name = Marshal.StringToCoTaskMemUTF8(directory);
        try
        {
            var error = IntPtr.Zero;
            var db = Rocks.rocksdb_open_for_read_only(options.Handle, name, 0, out error);
            if (error != IntPtr.Zero)
            {
                RocksDbErrors.TakeMessage(error); // the writable open reports it, or recovers (RocksDbWalHole)
                return IntPtr.Zero;
            }

            if (Rocks.rocksdb_get_latest_sequence_number(db) != mark.Sequence)
            {
                Rocks.rocksdb_close(db);
                return IntPtr.Zero;
            }

            return db;
        }
        finally
        {
            Marshal.FreeCoTaskMem(name);
        }
    }
}
