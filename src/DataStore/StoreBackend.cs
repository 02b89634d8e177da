namespace DataStore;

/// <summary>The storage engine behind an <see cref="IKeyValueStore"/>.</summary>
public enum StoreBackend
{
    /// <summary>SQLite in WAL mode, one <c>WITHOUT ROWID</c> table. The default.</summary>
    Sqlite = 0,

    /// <summary>A sorted map in this process's memory, for applications' unit tests; nothing is written to disk.</summary>
    InMemory = 1,

    /// <summary>RocksDB, whose native library comes with the separate package DataStore.RocksDb; one process at a time (another waits up to the timeout).</summary>
    RocksDb = 2,

    /// <summary>LMDB (the LightningDB package's native library): fastest reads; the map grows by itself and keys may be longer than LMDB's 511 bytes.</summary>
    Lmdb = 3,

    /// <summary>Plain files, one per key, in directories ordered by key bytes; shared across processes through file locks.</summary>
    FileSystem = 4,

    /// <summary>LiteDB 5 in direct mode, one collection keyed by the binary key; one process at a time (ADR 0009).</summary>
    LiteDb = 5,

    /// <summary>One immutable, memory-mapped file built by <see cref="PackedStore.Build(IEnumerable{KeyValuePair{byte[], byte[]}}, string, IProgress{StoreProgress}?, CancellationToken)"/>; read-only, shared by any number of processes (ADR 0019).</summary>
    Packed = 6,
}
