namespace DataStore.Tests.Cli;

/// <summary>Damages a closed store's data files the way a bad disk would: bytes overwritten inside the engine's pages or files.</summary>
public static class StoreDamage
{
    /// <summary>Overwrites bytes inside <paramref name="backend"/>'s data files under <paramref name="path"/>; the same damage every run.</summary>
    public static void Damage(string path, StoreBackend backend)
    {
        switch (backend)
        {
            case StoreBackend.Sqlite:
                // Past the 100-byte header and the first (schema) page: b-tree pages of the pairs table.
                OverwritePages(Path.Combine(path, "store.sqlite"), pageSize: 4096, firstPage: 1, offsetInPage: 0, [.. Enumerable.Repeat((byte)0xff, 64)]);
                break;
            case StoreBackend.Lmdb:
                // Page headers and node pointers of every page after the two meta pages: pages point nowhere.
                OverwritePages(Path.Combine(path, "store.lmdb"), pageSize: 4096, firstPage: 2, offsetInPage: 16, [.. Enumerable.Repeat((byte)0xff, 32)]);
                break;
            case StoreBackend.LiteDb:
                OverwritePages(Path.Combine(path, "store.litedb"), pageSize: 8192, firstPage: 1, offsetInPage: 0, [.. Enumerable.Repeat((byte)0xff, 64)]);
                break;
            case StoreBackend.RocksDb:
                foreach (var table in Directory.EnumerateFiles(path, "*.sst"))
                {
                    Overwrite(table, new FileInfo(table).Length / 3, [.. Enumerable.Repeat((byte)0xff, 256)]);
                }

                break;
            case StoreBackend.FileSystem:
                foreach (var file in Directory.EnumerateFiles(Path.Combine(path, "data"), "k*", SearchOption.AllDirectories).Order(StringComparer.Ordinal).Take(5))
                {
                    Overwrite(file, new FileInfo(file).Length - 1, [0x5a]); // the value's last byte: the file's checksum fails
                }

                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(backend), backend, "no data files to damage");
        }
    }

    /// <summary>
    /// Scatters 8 pseudo-random bytes over every LMDB page after the meta pages (a 64-bit LCG from <paramref name="seed"/>):
    /// damage that makes LMDB 0.9 read through wild pointers and crash the process.
    /// </summary>
    public static void ScatterLmdb(string path, ulong seed)
    {
        var file = Path.Combine(path, "store.lmdb");
        var state = seed;
        ulong Next() => state = unchecked((state * 6364136223846793005UL) + 1442695040888963407UL);
        var pages = new FileInfo(file).Length / 4096;
        for (var page = 2L; page < pages; page++)
        {
            var offset = 16 + (long)((Next() >> 33) % 3984);
            Overwrite(file, (page * 4096) + offset, BitConverter.GetBytes(Next()));
        }
    }

    private static void OverwritePages(string file, int pageSize, int firstPage, int offsetInPage, byte[] bytes)
    {
        var pages = new FileInfo(file).Length / pageSize;
        Assert.True(pages > firstPage + 2, $"{file} has only {pages} pages");
        for (var page = firstPage; page < pages; page++)
        {
            Overwrite(file, (page * (long)pageSize) + offsetInPage, bytes);
        }
    }

    private static void Overwrite(string file, long offset, byte[] bytes)
    {
        using var stream = new FileStream(file, FileMode.Open, FileAccess.Write);
        stream.Position = offset;
        stream.Write(bytes);
    }
}
