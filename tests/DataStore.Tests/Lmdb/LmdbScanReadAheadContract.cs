using DataStore.Lmdb;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>Lmdb: one pair a visit at first, then an eighth of what was read (ADR 0006); scans renew kept native cursors.</summary>
public sealed class LmdbScanReadAheadContract : ScanReadAheadContract
{
    protected override int FirstBatchAtMost => 1;

    protected override int TenthPairAtMost => 10;

    protected override IKeyValueStore Open(string path) => KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb });

    protected override long ReadSoFar(IKeyValueCursor cursor) => ((LmdbCursor)cursor).PairsRead;
}
