using DataStore.LiteDb;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.LiteDb;

/// <summary>LiteDb: a first batch of 16 documents, then 64 and 256 (ADR 0009; it was 256 from the start); scans run on kept threads.</summary>
public sealed class LiteDbScanReadAheadContract : ScanReadAheadContract
{
    protected override int FirstBatchAtMost => 17;

    protected override int TenthPairAtMost => 17;

    // The store itself, not the owner-process wrapper KeyValueStore.Open gives, so the cursor is the backend's.
    protected override IKeyValueStore Open(string path)
    {
        Directory.CreateDirectory(path);
        return LiteDbStore.Open(path, Durability.Relaxed, new DataStoreOptions { Path = path }, NullLogger.Instance);
    }

    protected override long ReadSoFar(IKeyValueCursor cursor) => ((LiteDbCursor)cursor).DocumentsRead;
}
