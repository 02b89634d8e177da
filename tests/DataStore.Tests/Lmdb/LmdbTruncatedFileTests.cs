using DataStore.Lmdb.Files;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// A truncated data file and a damaged format record are errors that name the file (issue 23 item 6). Each case runs
/// in a child process: before the size check, reading past the end of a truncated file killed the process (SIGBUS).
/// </summary>
public sealed class LmdbTruncatedFileTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    public void A_truncated_data_file_is_a_corrupt_store_error_naming_it_not_a_crash(int divisor)
    {
        var path = StoreWithPairs();
        var dataFile = Path.Combine(path, "store.lmdb");
        using (var file = new FileStream(dataFile, FileMode.Open))
        {
            file.SetLength(file.Length / divisor);
        }

        var (exitCode, output) = ChildProcess.Run(["count", path, "Lmdb", "-", ""]);
        Assert.True(exitCode == 3, $"expected a DataStoreException (exit 3), got exit {exitCode}: {output}");
        Assert.Contains("ERROR Corrupt StoreFormatException", output);
        Assert.Contains(dataFile, output);
        Assert.Contains("truncated", output);
    }

    [Fact]
    public void A_damaged_format_record_is_reported_damaged_naming_it()
    {
        var path = StoreWithPairs();
        var record = Path.Combine(path, LmdbFormatRecord.FileName);
        File.WriteAllBytes(record, [0x4C, 0x00, 0xFF, 0x44, 0x42, 0x20, 0x31, 0x2E, 0x90]);

        var (exitCode, output) = ChildProcess.Run(["open", path, "Lmdb"]);
        Assert.True(exitCode == 3, $"expected a DataStoreException (exit 3), got exit {exitCode}: {output}");
        Assert.Contains("ERROR Corrupt StoreFormatException", output);
        Assert.Contains($"{record} is damaged", output);
    }

    [Fact]
    public void A_file_that_ends_before_its_last_free_pages_still_opens()
    {
        // LMDB's meta page records the last page ever used; pages freed since need not be in the file (LMDB does
        // not write a page that was freed in the transaction that made it). Shortening the file by exactly its
        // trailing free pages makes such a file; it must open with every pair.
        var path = StoreWithPairs();
        var dataFile = Path.Combine(path, "store.lmdb");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb }))
        {
            store.DeletePrefix("key/"u8);
        }

        // Each open pins the synced state (ADR 0006), so pages freed in one session are reused in a later one: write
        // in sessions until the file ends in free pages.
        var (firstTrailingFree, pageSize, lastPage) = (0UL, 0, 0UL);
        for (var session = 1; session <= 6 && (session <= 2 || firstTrailingFree > lastPage); session++)
        {
            using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb }))
            {
                store.Delete("after/1"u8);
                store.Put("after/1"u8, "1"u8);
                store.Put("after/2"u8, "2"u8);
            }

            (firstTrailingFree, pageSize, lastPage) = TrailingFreePages(path, dataFile);
        }

        Assert.True(firstTrailingFree <= lastPage, $"the store should end in free pages (last page {lastPage})");
        using (var file = new FileStream(dataFile, FileMode.Open))
        {
            file.SetLength(checked((long)firstTrailingFree * pageSize));
        }

        var (exitCode, output) = ChildProcess.Run(["count", path, "Lmdb", "-", ""]);
        Assert.True(exitCode == 0, $"expected the store to open, got exit {exitCode}: {output}");
        Assert.Contains("COUNT 2", output);
    }

    public void Dispose() => _directory.Dispose();

    // The first page of the run of free pages that ends at the meta page's last page (lastPage + 1 when none).
    private static (ulong First, int PageSize, ulong LastPage) TrailingFreePages(string path, string dataFile)
    {
        using var file = LmdbDataFile.Open(path, dataFile);
        var free = new HashSet<ulong>();
        new LmdbTreeReader(file).Walk(file.Meta.Free, "free-page", (_, list) =>
        {
            var count = System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(list);
            for (var i = 1; i <= (int)count; i++)
            {
                free.Add(System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(list[(i * 8)..]));
            }
        });
        var first = file.Meta.LastPage + 1;
        while (free.Contains(first - 1))
        {
            first--;
        }

        return (first, file.Meta.PageSize, file.Meta.LastPage);
    }

    // A store of about 250 KB: 2,000 pairs with 100-byte values.
    private string StoreWithPairs() => LmdbTestStores.WithPairs(_directory.Sub("store"));
}
