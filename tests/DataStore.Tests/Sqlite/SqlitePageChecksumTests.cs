using System.Buffers.Binary;
using System.Text;
using System.Text.Json;

namespace DataStore.Tests.Sqlite;

/// <summary>
/// Page checksums (ADR 0023): a byte flipped or zeroed inside a b-tree page of <c>store.sqlite</c> could send a lookup
/// past a key that is there, so <c>Get</c> answered "absent" with no error (the damage matrix's known open defect). Every
/// page of a store created now carries a checksum checked as it is read: each answer is the value written or a Corrupt
/// error naming the file and the page.
/// </summary>
/// <remarks>
/// <c>DATASTORE_TEST_PAGE_CHECKSUMS=off</c> fills the damage cases' store as DataStore wrote it before (format 2, no reserved
/// bytes), to see the same damage without page checksums: there the reads answer "absent" and the test fails.
/// </remarks>
public sealed class SqlitePageChecksumTests : IDisposable
{
    private const int Keys = 4_000;
    private const byte InteriorIndexPage = 0x02;
    private const byte LeafIndexPage = 0x0A;
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(InteriorIndexPage, false)]
    [InlineData(LeafIndexPage, false)]
    [InlineData(InteriorIndexPage, true)]
    [InlineData(LeafIndexPage, true)]
    public async Task Damage_inside_a_btree_page_is_a_corrupt_error_naming_the_file_never_an_absent_key(byte pageType, bool zero)
    {
        var path = Fill();
        var file = Path.Combine(path, "store.sqlite");
        var page = Damage(file, pageType, zero);

        var errors = 0;
        using (var store = KeyValueStore.Open(path))
        {
            for (var i = 0; i < Keys; i++)
            {
                errors += Answer(() => Assert.Equal(Value(i), store.Get(Key(i))), file, $"Get {i}");
                errors += Answer(() => Assert.True(store.HaveKey(Key(i)), $"HaveKey {i} answered false"), file, $"HaveKey {i}");
            }

            errors += Answer(() => Assert.Equal(Enumerable.Range(0, Keys).Select(i => Convert.ToHexString(Key(i)) + Convert.ToHexString(Value(i))),
                store.EnumeratePrefix([]).ToList().Select(p => Convert.ToHexString(p.Key) + Convert.ToHexString(p.Value))), file, "the scan");

            var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
            Assert.False(report.IsHealthy, "verify said healthy");
            Assert.Contains(report.Problems, p => p.Contains(file, StringComparison.Ordinal));
        }

        Assert.True(errors > 0, $"no read met the damaged page {page}");
    }

    [Fact]
    public async Task A_new_store_reserves_the_checksum_and_a_store_written_before_opens_and_works_without_it()
    {
        var path = Fill();
        Assert.Equal(8, Header(Path.Combine(path, "store.sqlite"))[20]);
        using (var manifest = JsonDocument.Parse(File.ReadAllText(Path.Combine(path, "datastore.json"))))
        {
            Assert.Equal(4, manifest.RootElement.GetProperty("formatVersion").GetInt32());
        }

        // A store of format version 2 (written before page checksums): its database is created, read and written as before.
        var old = _directory.Sub("old");
        Directory.CreateDirectory(old);
        CreateAsBefore(Path.Combine(old, "store.sqlite"));
        File.WriteAllText(Path.Combine(old, "datastore.json"), """{ "backend": "Sqlite", "formatVersion": 2, "durability": "Relaxed", "checksums": true }""");
        using (var store = KeyValueStore.Open(old))
        {
            store.Put(Key(1), Value(1));
        }

        Assert.Equal(0, Header(Path.Combine(old, "store.sqlite"))[20]);
        using (var store = KeyValueStore.Open(old))
        {
            Assert.Equal(Value(1), store.Get(Key(1)));
            Assert.True((await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken)).IsHealthy);
        }
    }

    [Fact]
    public void A_header_that_lost_the_reserved_bytes_of_a_checked_store_is_refused_naming_the_file()
    {
        var path = Fill();
        var file = Path.Combine(path, "store.sqlite");
        using (var stream = new FileStream(file, FileMode.Open))
        {
            stream.Position = 20;
            stream.WriteByte(0);
        }

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(path).Dispose());
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(file, error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(int i) => Encoding.UTF8.GetBytes($"mods/{i:D6}");

    private static byte[] Value(int i) => Enumerable.Range(0, 100).Select(j => (byte)((i * 31) + j)).ToArray();

    private string Fill()
    {
        var path = _directory.Sub("store");
        if (Environment.GetEnvironmentVariable("DATASTORE_TEST_PAGE_CHECKSUMS") == "off")
        {
            Directory.CreateDirectory(path);
            CreateAsBefore(Path.Combine(path, "store.sqlite"));
            File.WriteAllText(Path.Combine(path, "datastore.json"), """{ "backend": "Sqlite", "formatVersion": 2, "durability": "Relaxed", "checksums": true }""");
        }

        using var store = KeyValueStore.Open(path);
        var batch = new WriteBatch();
        for (var i = 0; i < Keys; i++)
        {
            batch.Put(Key(i), Value(i));
        }

        store.Write(batch);
        return path;
    }

    // 1 when the read ended in a Corrupt error naming the file; 0 when it answered right; fails the test on anything else.
    private static int Answer(Action read, string file, string what)
    {
        try
        {
            read();
            return 0;
        }
        catch (StoreFormatException e) when (e.Cause == StoreFailure.Corrupt)
        {
            Assert.True(e.Message.Contains(file, StringComparison.Ordinal), $"{what}: the error does not name {file}: {e.Message}");
            return 1;
        }
    }

    // Flips (or zeroes) one byte in the middle of the cell content of the first page of the given type; returns its number.
    private static long Damage(string file, byte pageType, bool zero)
    {
        var bytes = File.ReadAllBytes(file);
        int pageSize = BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(16));
        for (var page = 2; page * pageSize <= bytes.Length; page++)
        {
            var start = (page - 1) * pageSize;
            if (bytes[start] != pageType)
            {
                continue;
            }

            var content = BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(start + 5));
            var offset = start + ((content + pageSize - 8) / 2);
            while (bytes[offset] == 0)
            {
                offset++; // a byte that zeroing changes
            }

            bytes[offset] = zero ? (byte)0 : (byte)~bytes[offset];
            File.WriteAllBytes(file, bytes);
            return page;
        }

        throw new InvalidOperationException($"no page of type {pageType} in {file}");
    }

    // The database file as DataStore wrote it before page checksums: WAL mode, the checksummed table, no reserved bytes.
    private static void CreateAsBefore(string file)
    {
        SQLitePCL.Batteries_V2.Init();
        Assert.Equal(SQLitePCL.raw.SQLITE_OK, SQLitePCL.raw.sqlite3_open(file, out var db));
        using (db)
        {
            Assert.Equal(SQLitePCL.raw.SQLITE_OK, SQLitePCL.raw.sqlite3_exec(db,
                "PRAGMA journal_mode=WAL; CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB NOT NULL, c INTEGER NOT NULL) WITHOUT ROWID"));
        }
    }

    private static byte[] Header(string file) => File.ReadAllBytes(file)[..100];
}
