using DataStore.Platform;
using DataStore.Sqlite.Files;

namespace DataStore.Tests.Sqlite;

/// <summary>
/// The record of when the write-ahead log began (ADR 0023, "Write-ahead log"): a header SQLite writes with the salts of
/// the header already in the file keeps that log's generation (its recovery took no frame, and frames of the generation
/// written before a power loss may lie behind the new ones), so it is recorded with no boot and the open's log check
/// leaves that log to SQLite; a new header is recorded with this boot.
/// </summary>
public sealed class SqliteWalBegunTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_header_with_the_salts_already_in_the_file_is_recorded_with_no_boot_a_new_one_with_this_boot()
    {
        Assert.SkipWhen(BootIdentity.Current == 0, "the boot cannot be known on this system, so the log check is off");
        var path = _directory.Sub("store");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Sqlite }))
        {
            store.Put("k"u8, "v"u8);
            var walFile = Path.Combine(path, "store.sqlite-wal");
            var header = SqliteWalBegun.HeaderIn(walFile);
            Assert.NotNull(header);
            Assert.True(SqliteWalFormat.IsHeader(header));

            SqliteWalBegun.Write(walFile, header, previous: null);
            Assert.Equal(BootIdentity.Current, SqliteWalBegun.Read(walFile)?.Boot);

            SqliteWalBegun.Write(walFile, header, previous: header);
            Assert.Equal(0UL, SqliteWalBegun.Read(walFile)?.Boot);

            var otherGeneration = (byte[])header.Clone();
            otherGeneration[16] ^= 1; // another salt: no longer a header SQLite would accept, nor one of this generation
            SqliteWalBegun.Write(walFile, header, otherGeneration);
            Assert.Equal(BootIdentity.Current, SqliteWalBegun.Read(walFile)?.Boot);
        }
    }

    public void Dispose() => _directory.Dispose();
}
