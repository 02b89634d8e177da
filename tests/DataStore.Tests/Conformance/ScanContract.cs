namespace DataStore.Tests.Conformance;

/// <summary>Rule 4: prefix scans, keys-only scans, the empty prefix, and range scans over [start, end).</summary>
public abstract class ScanContract : StoreContract
{
    private IKeyValueStore OpenWithMods()
    {
        var store = Open();
        foreach (var mod in new[] { "a", "ab", "b", "skyui", "skyui2", "ussep" })
        {
            store.Put(Bytes.Utf8($"mods/{mod}"), Bytes.Utf8($"v-{mod}"));
        }

        store.Put(Bytes.Utf8("modsx"), Bytes.Utf8("other"));
        store.Put(Bytes.Utf8("games/skyrim"), Bytes.Utf8("g"));
        return store;
    }

    [Fact]
    public void A_prefix_scan_yields_every_matching_pair_with_its_value()
    {
        var store = OpenWithMods();
        var pairs = StoreAssert.Scan(store, Bytes.Utf8("mods/sky"));
        Assert.Equal(["mods/skyui", "mods/skyui2"], pairs.Select(p => System.Text.Encoding.UTF8.GetString(p.Key)));
        Assert.Equal(["v-skyui", "v-skyui2"], pairs.Select(p => System.Text.Encoding.UTF8.GetString(p.Value)));
    }

    [Fact]
    public void A_keys_only_scan_yields_keys_and_empty_values()
    {
        var store = OpenWithMods();
        var pairs = StoreAssert.Scan(store, Bytes.Utf8("mods/"), keysOnly: true);
        Assert.Equal(6, pairs.Count);
        Assert.All(pairs, p => Assert.Empty(p.Value));
    }

    [Fact]
    public void The_empty_prefix_scans_everything()
    {
        var store = OpenWithMods();
        var pairs = StoreAssert.Scan(store, []);
        Assert.Equal(8, pairs.Count);
        StoreAssert.Ascending(pairs);
    }

    [Fact]
    public void A_prefix_with_no_match_yields_nothing()
    {
        var store = OpenWithMods();
        Assert.Empty(StoreAssert.Scan(store, Bytes.Utf8("mods/zz")));
        Assert.Empty(StoreAssert.Scan(Open(path: Directory.Sub("empty")), []));
    }

    [Fact]
    public void A_range_scan_covers_start_inclusive_to_end_exclusive()
    {
        var store = OpenWithMods();
        var pairs = StoreAssert.Range(store, Bytes.Utf8("mods/ab"), Bytes.Utf8("mods/skyui2"));
        Assert.Equal(["mods/ab", "mods/b", "mods/skyui"], pairs.Select(p => System.Text.Encoding.UTF8.GetString(p.Key)));
    }

    [Fact]
    public void A_range_scan_with_open_bounds_reaches_the_ends()
    {
        var store = OpenWithMods();
        Assert.Equal(8, StoreAssert.Range(store, [], []).Count);
        Assert.Equal(["games/skyrim"], StoreAssert.Range(store, [], Bytes.Utf8("mods")).Select(p => System.Text.Encoding.UTF8.GetString(p.Key)));
        Assert.Equal(["modsx"], StoreAssert.Range(store, Bytes.Utf8("modsx"), []).Select(p => System.Text.Encoding.UTF8.GetString(p.Key)));
    }

    [Fact]
    public void Reading_a_cursor_before_MoveNext_or_after_the_end_throws()
    {
        var store = OpenWithMods();
        using var cursor = store.ScanPrefix(Bytes.Utf8("games/"));
        Assert.Throws<InvalidOperationException>(() => cursor.Key.ToArray());
        Assert.True(cursor.MoveNext());
        Assert.Equal(Bytes.Utf8("games/skyrim"), cursor.Key.ToArray());
        Assert.False(cursor.MoveNext());
        Assert.False(cursor.MoveNext());
        Assert.Throws<InvalidOperationException>(() => cursor.Key.ToArray());
    }

    [Fact]
    public void Many_cursors_can_be_open_at_once()
    {
        var store = OpenWithMods();
        var cursors = Enumerable.Range(0, 20).Select(_ => store.ScanPrefix(Bytes.Utf8("mods/"))).ToList();
        foreach (var cursor in cursors)
        {
            Assert.Equal(6, StoreAssert.Drain(cursor).Count);
            cursor.Dispose();
        }
    }

    [Fact]
    public void The_enumerable_conveniences_copy_each_pair()
    {
        var store = OpenWithMods();
        var pairs = store.EnumeratePrefix(Bytes.Utf8("mods/s")).ToList();
        Assert.Equal(2, pairs.Count);
        Assert.Equal(Bytes.Utf8("v-skyui"), pairs[0].Value);
        Assert.Equal(6, store.EnumerateKeys(Bytes.Utf8("mods/")).Count());
        Assert.Equal(2, store.EnumerateRange(Bytes.Utf8("mods/a"), Bytes.Utf8("mods/b")).Count());
    }

    [Fact]
    public void CountKeys_counts_the_keys_under_a_prefix_and_every_key_under_the_empty_prefix()
    {
        var store = OpenWithMods();
        Assert.Equal(8, store.CountKeys([]));
        Assert.Equal(6, store.CountKeys(Bytes.Utf8("mods/")));
        Assert.Equal(1, store.CountKeys(Bytes.Utf8("modsx")));
        Assert.Equal(0, store.CountKeys(Bytes.Utf8("mods/zz")));
        store.Delete(Bytes.Utf8("mods/ab"));
        Assert.Equal(5, store.CountKeys(Bytes.Utf8("mods/")));
        Assert.Equal(0, Open(path: Directory.Sub("empty")).CountKeys([]));
    }

    // What `datastore count` and `info` rely on: counting a whole store never holds writers for the count (ADR 0024).
    [Fact]
    public async Task A_keys_only_scan_of_everything_lets_writers_in_and_counts_the_store_as_it_began()
    {
        var store = Open(o => o.Timeout = TimeSpan.FromSeconds(2));
        var batch = new WriteBatch();
        for (var i = 0; i < 1_000; i++)
        {
            batch.Put([(byte)'k', .. BitConverter.GetBytes(i).Reverse()], Bytes.Random(100, i));
        }

        store.Write(batch);
        using (var cursor = store.ScanPrefix([], keysOnly: true))
        {
            Assert.True(cursor.MoveNext());

            // Both ahead of the cursor: the scan must not see them, and they must not wait for the scan to end.
            var writer = Task.Run(() => store.Write(new WriteBatch().Put("z1"u8, "1"u8).Put("z2"u8, "2"u8).Delete([(byte)'k', 0, 0, 3, 231])),
                TestContext.Current.CancellationToken);
            await writer.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);
            Assert.Equal(999, StoreAssert.Drain(cursor).Count);
        }

        Assert.Equal(1_001, store.CountKeys([]));
    }
}
