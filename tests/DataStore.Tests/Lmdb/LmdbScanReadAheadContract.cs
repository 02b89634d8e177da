using DataStore.Lmdb;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>Lmdb: batches of 4 pairs, then 8, 16, ... (ADR 0006); scans renew kept native cursors.</summary>
public sealed class LmdbScanReadAheadContract : ScanReadAheadContract
{
    protected override int FirstBatchAtMost => 4;

    protected override int TenthPairAtMost => 4 + 8 + 16;

    protected override IKeyValueStore Open(string path) => KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb });

    protected override long ReadSoFar(IKeyValueCursor cursor) => ((LmdbCursor)cursor).PairsRead;
}
