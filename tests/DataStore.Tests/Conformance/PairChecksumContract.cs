namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 10, integrity (issue 23 item 7, ADR 0014): a stored value whose bytes changed on disk is an error naming its key, never
/// returned; scans stop with that error and verify reports it. Stores written before checksums (format version 1) still open.
/// </summary>
public abstract class PairChecksumContract : StoreContract
{
    private const string Rule = "10: each pair is checked end to end";

    // 32 bytes that occur nowhere else in the store: the damage is aimed at them, in whichever data file they ended up.
    private static readonly byte[] Marker = Bytes.Utf8("<<checksum-probe-value-bytes-42>>");
    private static readonly byte[] Victim = Bytes.Utf8("pairs/victim");

    [Fact]
    public Task A_flipped_byte_in_a_stored_value_is_an_error_naming_the_key_on_get_scan_and_verify() => FlipAndRead(Victim);

    [Fact]
    public Task A_flipped_byte_in_the_value_of_a_long_key_is_an_error_naming_the_key() =>
        FlipAndRead([.. Victim, .. Bytes.Key(1_000, (byte)'/', (byte)'z')]); // LMDB slots, LiteDB long ids, FileSystem hashed names

    private async Task FlipAndRead(byte[] victim)
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        for (var i = 0; i < 50; i++)
        {
            store.Put(Bytes.Utf8($"pairs/{i:D3}"), Bytes.Random(100, i));
        }

        store.Put(victim, [.. Bytes.Random(40, 99), .. Marker, .. Bytes.Random(40, 98)]);
        store.Compact(); // the pairs in the main data file (SQLite: out of the WAL; RocksDB: into a table file)
        store.Dispose();
        var flipped = FlipMarkerBytes(StorePath);
        Assert.True(flipped > 0, "the value's bytes were not found in any file of the store");

        using var reopened = KeyValueStore.Open(Options());
        Assert.Equal(100, reopened.Get(Bytes.Utf8("pairs/007"), new byte[200])); // the other pairs still read
        AssertNamesTheVictim(Assert.ThrowsAny<DataStoreException>(() => reopened.Get(victim)), keyNamed: true);
        AssertNamesTheVictim(Assert.ThrowsAny<DataStoreException>(() => reopened.EnumeratePrefix(Bytes.Utf8("pairs/")).ToList()),
            keyNamed: victim.Length < 100 || Backend != StoreBackend.FileSystem); // a hashed file name does not say its key
        var report = await reopened.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.False(report.IsHealthy);
        var named = Backend is not (StoreBackend.RocksDb or StoreBackend.Sqlite) && (victim.Length < 100 || Backend != StoreBackend.FileSystem);
        Assert.Contains(report.Problems, p => !named || p.Contains("pairs/victim", StringComparison.Ordinal));
        Assert.Contains(report.Problems, p => Backend != StoreBackend.Sqlite || p.Contains("store.sqlite", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_store_written_before_checksums_still_opens_reads_and_writes()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, Rule);
        using (Open())
        {
            // creates the store's data files; the manifest is then put back as a version-1 store wrote it
        }

        File.WriteAllText(Path.Combine(StorePath, "datastore.json"),
            $$"""{ "backend": "{{Backend}}", "formatVersion": 1, "durability": "Relaxed" }""");
        using (var old = Open())
        {
            old.Put(Victim, Marker);
            old.Put("pairs/long"u8, Bytes.Random(70_000, 1));
        }

        using var reopened = KeyValueStore.Open(StorePath);
        StoreAssert.Holds(reopened, Victim, Marker);
        StoreAssert.Holds(reopened, "pairs/long"u8.ToArray(), Bytes.Random(70_000, 1));
        Assert.Equal(2, reopened.EnumeratePrefix(Bytes.Utf8("pairs/")).Count());
        Assert.True((await reopened.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken)).IsHealthy);
        Assert.Contains("\"formatVersion\": 1", File.ReadAllText(Path.Combine(StorePath, "datastore.json")), StringComparison.Ordinal);
    }

    private void AssertNamesTheVictim(DataStoreException error, bool keyNamed)
    {
        TestContext.Current.TestOutputHelper?.WriteLine(error.Message);
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        if (Backend == StoreBackend.RocksDb)
        {
            // RocksDB checks its blocks itself and names the table file, not the key (ADR 0014); its errors are not yet
            // StoreFormatExceptions (RocksDbErrors, issue 23 item 4 is its engineer's).
            Assert.Contains(".sst", error.Message, StringComparison.Ordinal);
            return;
        }

        Assert.IsType<StoreFormatException>(error);
        if (Backend == StoreBackend.Sqlite)
        {
            // The page's checksum (ADR 0023) fails before the pair's is read: the error names the file and the page, not the key.
            Assert.Contains("store.sqlite' does not match its checksum", error.Message, StringComparison.Ordinal);
            return;
        }

        if (keyNamed)
        {
            Assert.Contains("pairs/victim", error.Message, StringComparison.Ordinal);
        }
    }

    // Flips one byte in the middle of every copy of the marker (copy-on-write engines leave stale copies in free pages).
    private static int FlipMarkerBytes(string store)
    {
        var flipped = 0;
        foreach (var file in System.IO.Directory.EnumerateFiles(store, "*", SearchOption.AllDirectories))
        {
            var bytes = File.ReadAllBytes(file);
            var changed = false;
            for (var at = bytes.AsSpan().IndexOf(Marker); at >= 0;)
            {
                bytes[at + (Marker.Length / 2)] ^= 0x01;
                changed = true;
                flipped++;
                var next = bytes.AsSpan(at + 1).IndexOf(Marker);
                at = next < 0 ? -1 : at + 1 + next;
            }

            if (changed)
            {
                File.WriteAllBytes(file, bytes);
            }
        }

        return flipped;
    }
}
