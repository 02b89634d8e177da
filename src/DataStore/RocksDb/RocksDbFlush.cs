using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>RocksDB's flush of memtables to table files, waited for: at close, for the change log, and after a WAL-hole recovery.</summary>
internal static class RocksDbFlush
{

    /// <summary>Flushes <paramref name="family"/> (the default family when zero) of <paramref name="db"/> and waits; RocksDB's error text, or null.</summary>
    public static string? AndWait(IntPtr db, IntPtr family = default)
    {
        var options = Rocks.rocksdb_flushoptions_create();
        try
        {
            Rocks.rocksdb_flushoptions_set_wait(options, 1);
            var error = IntPtr.Zero;
            if (family == IntPtr.Zero)
            {
                Rocks.rocksdb_flush(db, options, out error);
            }
            else
            {
                Rocks.rocksdb_flush_cf(db, options, family, out error);
            }

            return error == IntPtr.Zero ? null : RocksDbErrors.TakeMessage(error);
        }
        finally
        {
            Rocks.rocksdb_flushoptions_destroy(options);
        }
    }
}
