namespace DataStore.RocksDb.Interop;

/// <summary>RocksDB's <c>WALRecoveryMode</c>: what an open does with a damaged write-ahead log record (ADR 0005).</summary>
internal enum RocksDbWalRecovery
{
    /// <summary>Drops a torn last record; refuses a bad record followed by good ones.</summary>
    TolerateCorruptedTailRecords = 0,

    /// <summary>Refuses any bad record.</summary>
    AbsoluteConsistency = 1,

    /// <summary>Stops replay at the first bad record and opens with what came before it.</summary>
    PointInTime = 2,
}
