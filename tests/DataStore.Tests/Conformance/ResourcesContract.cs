namespace DataStore.Tests.Conformance;

/// <summary>Rule 12: Dispose releases every file and handle; a disposed store throws; Compact gives space back.</summary>
public abstract class ResourcesContract : StoreContract
{
    [Fact]
    public void Every_method_of_a_disposed_store_throws_ObjectDisposedException()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Dispose();
        store.Dispose();

        Assert.Throws<ObjectDisposedException>(() => store.Put(Bytes.Of(1), Bytes.Of(1)));
        Assert.Throws<ObjectDisposedException>(() => store.Get(Bytes.Of(1)));
        Assert.Throws<ObjectDisposedException>(() => store.Get(Bytes.Of(1), new byte[4]));
        Assert.Throws<ObjectDisposedException>(() => store.HaveKey(Bytes.Of(1)));
        Assert.Throws<ObjectDisposedException>(() => store.Delete(Bytes.Of(1)));
        Assert.Throws<ObjectDisposedException>(() => store.DeletePrefix(Bytes.Of(1)));
        Assert.Throws<ObjectDisposedException>(() => store.DeleteRange([], []));
        Assert.Throws<ObjectDisposedException>(() => store.ScanPrefix([]));
        Assert.Throws<ObjectDisposedException>(() => store.ScanRange([], []));
        Assert.Throws<ObjectDisposedException>(() => store.Write(new WriteBatch().Put(Bytes.Of(1), [])));
        Assert.Throws<ObjectDisposedException>(() => store.Compact());
    }

    [Fact]
    public void Dispose_closes_every_file_of_the_store()
    {
        RequireCapability(StoreCapabilities.Persistent, "12: Dispose releases every file");
        Assert.SkipUnless(OperatingSystem.IsLinux(), "open files are read from /proc/self/fd, which only Linux has");
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        using (var cursor = store.ScanPrefix([]))
        {
            cursor.MoveNext();
        }

        Parallel.For(0, 8, i => store.Get([(byte)i]));
        Assert.NotEmpty(OpenFilesUnder(StorePath));

        store.Dispose();
        Assert.Empty(OpenFilesUnder(StorePath));
    }

    [Fact]
    public void A_reopened_store_has_the_data()
    {
        RequireCapability(StoreCapabilities.Persistent, "12: data outlives the store instance");
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Write(new WriteBatch().Put(Bytes.Of(2), Bytes.Of(2)));
        store.Dispose();

        var reopened = Open();
        StoreAssert.KeysEqual([[1], [2]], StoreAssert.Scan(reopened, []));
    }

    [Fact]
    public void Compact_shrinks_the_store_after_a_large_prefix_delete_and_keeps_the_rest()
    {
        RequireCapability(StoreCapabilities.Compaction | StoreCapabilities.Persistent, "12: Compact gives space back");
        var store = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < 4_000; i++)
        {
            batch.Put([1, (byte)(i >> 8), (byte)i], Bytes.Random(2_000, i));
        }

        batch.Put([2], Bytes.Of(2));
        store.Write(batch);
        store.Compact();
        var full = DirectorySize(StorePath);

        store.DeletePrefix([1]);
        store.Compact();
        var compacted = DirectorySize(StorePath);

        Assert.True(compacted < full / 4, $"the store takes {compacted} bytes after Compact, {full} before the delete");
        StoreAssert.KeysEqual([[2]], StoreAssert.Scan(store, []));
    }

    [Fact]
    public void Compact_on_an_empty_store_is_harmless()
    {
        var store = Open();
        store.Compact();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(1));
    }

    // Background work of the engine (a RocksDB compaction, a FileSystem split finishing) may remove a file while it is counted.
    private static long DirectorySize(string path) =>
        new DirectoryInfo(path).EnumerateFiles("*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true })
            .Sum(f => f.Exists ? LengthOrZero(f) : 0);

    private static long LengthOrZero(FileInfo file)
    {
        try
        {
            return file.Length;
        }
        catch (FileNotFoundException)
        {
            return 0;
        }
        catch (DirectoryNotFoundException)
        {
            return 0;
        }
    }

    private static List<string> OpenFilesUnder(string path)
    {
        var files = new List<string>();
        foreach (var fd in new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos())
        {
            try
            {
                if (fd.LinkTarget is { } target && target.StartsWith(path, StringComparison.Ordinal))
                {
                    files.Add(target);
                }
            }
            catch (IOException)
            {
                // The descriptor closed while we listed it.
            }
        }

        return files;
    }
}
