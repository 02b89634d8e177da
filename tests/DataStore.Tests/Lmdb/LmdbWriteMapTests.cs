using System.Diagnostics;
using DataStore.Lmdb;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// Relaxed stores on Linux write through a writable map (<c>MDB_WRITEMAP</c>); the risks ADR 0006 names are held here:
/// the whole map reserved on disk (so a full disk is an error, not a SIGBUS), Compact still giving space back, a stray
/// write into a value caught by its checksum, and no code but the writer making writable spans over LMDB's memory.
/// Readers in other processes and the map growth path are the conformance suite's and <see cref="LmdbMapGrowthTests"/>'s.
/// </summary>
public sealed class LmdbWriteMapTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string DataFile => Path.Combine(StorePath, LmdbEnvironment.DataFile);

    [Fact]
    public void A_Relaxed_store_writes_through_a_map_reserved_on_disk_also_after_the_map_grows()
    {
        SkipUnlessLinux();
        using var store = LmdbTestStores.OpenSmall(StorePath);
        Assert.True(store.Environment.WritesThroughMap);
        Assert.True(AllocatedBytes(DataFile) >= store.MapSize, $"{AllocatedBytes(DataFile)} bytes reserved for a {store.MapSize}-byte map");

        for (var i = 0; i < 64; i++)
        {
            store.Put([(byte)i], LmdbTestStores.Filled(64 << 10, i));
        }

        Assert.True(store.MapSize > LmdbTestStores.OneMebibyte, "the map did not grow");
        Assert.True(AllocatedBytes(DataFile) >= store.MapSize, $"{AllocatedBytes(DataFile)} bytes reserved for a {store.MapSize}-byte map");
    }

    [Fact]
    public void A_Durable_store_does_not_write_through_the_map()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath, durability: Durability.Durable);
        Assert.False(store.Environment.WritesThroughMap);
        store.Put("a"u8, "1"u8);
        Assert.True(new FileInfo(DataFile).Length < LmdbTestStores.OneMebibyte);
    }

    [Fact]
    public void Compact_through_the_map_gives_space_back()
    {
        SkipUnlessLinux();
        using var store = LmdbTestStores.OpenSmall(StorePath);
        for (var i = 0; i < 96; i++)
        {
            store.Put([(byte)i], LmdbTestStores.Filled(1 << 20, i));
        }

        store.DeleteRange([], []);
        store.Put("kept"u8, "1"u8);
        var before = new FileInfo(DataFile).Length;
        store.Compact();

        var after = new FileInfo(DataFile).Length;
        Assert.True(after < before, $"the data file is {after} bytes after Compact, {before} before");
        Assert.True(AllocatedBytes(DataFile) >= store.MapSize);
        Assert.Equal("1"u8.ToArray(), store.Get("kept"u8));
    }

    [Fact]
    public unsafe void A_stray_write_into_a_value_through_the_map_is_caught_by_its_checksum()
    {
        SkipUnlessLinux();
        using var store = LmdbTestStores.OpenSmall(StorePath);
        store.Put("mod/skyui"u8, "1.0"u8);
        var env = store.Environment;
        Assert.True(env.WritesThroughMap);

        // What a buggy pointer could do with the map writable: change a stored byte without a transaction.
        Assert.Equal(0, LmdbNative.TxnBegin(env.RawHandle, 0, LmdbNative.ReadOnly, out var txn));
        fixed (byte* k = "mod/skyui"u8)
        {
            var key = new LmdbNative.Val(k, 9);
            LmdbNative.Val data;
            Assert.Equal(0, LmdbNative.Get(txn, env.Dbi, &key, &data));
            data.Data[0] ^= 0x20;
        }

        LmdbNative.TxnAbort(txn);
        var error = Assert.Throws<StoreFormatException>(() => store.Get("mod/skyui"u8));
        Assert.Contains("mod/skyui", error.Message);
    }

    [Fact]
    public void Only_the_writer_makes_writable_spans_over_LMDB_memory()
    {
        var folder = Path.Combine(RepositoryRoot(), "src", "DataStore", "Lmdb");
        var writable = Directory.EnumerateFiles(folder, "*.cs", SearchOption.AllDirectories)
            .Where(f => File.ReadLines(f).Any(l => l.Contains("new Span<byte>(") && l.Contains(".Data")))
            .Select(Path.GetFileName)
            .ToList();

        Assert.Equal(["LmdbWriter.cs"], writable);
    }

    public void Dispose() => _directory.Dispose();

    private static void SkipUnlessLinux() =>
        Assert.SkipUnless(OperatingSystem.IsLinux(), "Relaxed stores write through the map on Linux only (ADR 0006); not tested elsewhere.");

    // The blocks the file system has allocated to the file (stat's %b in %B-byte units).
    internal static long AllocatedBytes(string file)
    {
        var start = new ProcessStartInfo("stat", ["-c", "%b %B", file]) { RedirectStandardOutput = true };
        using var stat = Process.Start(start)!;
        var parts = stat.StandardOutput.ReadToEnd().Split(' ', StringSplitOptions.TrimEntries);
        stat.WaitForExit();
        return long.Parse(parts[0]) * long.Parse(parts[1]);
    }

    private static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "DataStore.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("the tests run outside the repository");
    }
}
