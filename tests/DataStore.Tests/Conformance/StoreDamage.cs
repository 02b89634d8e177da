namespace DataStore.Tests.Conformance;

/// <summary>Damages a closed store's data the way a bad disk would: random bytes over the middle of each backend's main data file.</summary>
public static class StoreDamage
{
    /// <summary>Overwrites bytes in the middle of <paramref name="backend"/>'s data file in <paramref name="store"/>; returns the file damaged.</summary>
    public static string Apply(StoreBackend backend, string store)
    {
        var (file, length) = backend switch
        {
            StoreBackend.Sqlite => (Path.Combine(store, "store.sqlite"), 16_384),
            StoreBackend.Lmdb => (Path.Combine(store, "store.lmdb"), 4_096),
            StoreBackend.LiteDb => (Path.Combine(store, "store.litedb"), 16_384),
            StoreBackend.RocksDb => (Largest(store, "*.sst"), 4_096),
            StoreBackend.FileSystem => (Largest(Path.Combine(store, "data"), "*"), 100),
            _ => throw new NotSupportedException($"{backend} has no data file to damage."),
        };
        using var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite);
        var middle = stream.Length / 2;
        var offset = length >= 4_096 ? middle / 4_096 * 4_096 : middle;
        stream.Position = offset;
        stream.Write(Bytes.Random((int)Math.Min(length, stream.Length - offset), 12_345));
        stream.Flush(flushToDisk: true);
        return file;
    }

    private static string Largest(string directory, string pattern) =>
        new DirectoryInfo(directory).EnumerateFiles(pattern, SearchOption.AllDirectories).MaxBy(f => f.Length)?.FullName
            ?? throw new FileNotFoundException($"no {pattern} file under {directory}");
}
