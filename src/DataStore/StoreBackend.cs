namespace DataStore;

/// <summary>The storage engine behind an <see cref="IKeyValueStore"/>.</summary>
public enum StoreBackend
{
    /// <summary>SQLite in WAL mode, one <c>WITHOUT ROWID</c> table. The default.</summary>
    Sqlite = 0,

    /// <summary>A sorted map in this process's memory, for applications' unit tests; nothing is written to disk.</summary>
    InMemory = 1,

    /// <summary>RocksDB (not available in this version).</summary>
    RocksDb = 2,

    /// <summary>LMDB (not available in this version).</summary>
    Lmdb = 3,

    /// <summary>Plain files, one per key (not available in this version).</summary>
    FileSystem = 4,

    /// <summary>LiteDB 5 in direct mode, one collection keyed by the binary key; one process at a time (ADR 0009).</summary>
    LiteDb = 5,
}
