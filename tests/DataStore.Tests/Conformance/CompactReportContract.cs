namespace DataStore.Tests.Conformance;

/// <summary>Issue 7, compact: <see cref="StoreMaintenance.CompactAsync"/> reports the bytes a prefix delete gave back (Compact itself is rule 12, in <see cref="ResourcesContract"/>).</summary>
public abstract class CompactReportContract : StoreContract
{
    [Fact]
    public async Task CompactAsync_reports_the_bytes_given_back_after_a_prefix_delete()
    {
        RequireCapability(StoreCapabilities.Compaction | StoreCapabilities.Persistent, "12: Compact gives space back");
        var store = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < 2_000; i++)
        {
            batch.Put([1, (byte)(i >> 8), (byte)i], Bytes.Random(2_000, i));
        }

        store.Write(batch.Put([2], [2]));
        await store.CompactAsync(cancellationToken: TestContext.Current.CancellationToken);
        var full = Size(StorePath);
        store.DeletePrefix([1]);
        var before = Size(StorePath);
        var reports = new List<StoreProgress>();

        var given = await store.CompactAsync(new SynchronousProgress<StoreProgress>(reports.Add), TestContext.Current.CancellationToken);

        // Some backends give space back at the delete already (FileSystem removes files), the others at Compact.
        var after = Size(StorePath);
        // Within 1 MB: an engine's own log files (RocksDB's LOG) may grow between CompactAsync's measurements and these.
        Assert.InRange(given, Math.Max(0, before - after) - 1_000_000, Math.Max(0, before - after) + 1_000_000);
        Assert.True(after < full / 4, $"the store takes {after} bytes after CompactAsync, {full} before the delete");
        Assert.NotEmpty(reports);
        Assert.All(reports, r => Assert.Equal(StorePhase.Compacting, r.Phase));
        StoreAssert.KeysEqual([[2]], StoreAssert.Scan(store, []));
    }

    private static long Size(string path) => new DirectoryInfo(path).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);
}
