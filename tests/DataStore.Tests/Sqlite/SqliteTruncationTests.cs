using System.Globalization;

namespace DataStore.Tests.Sqlite;

/// <summary>
/// A database file cut short (issue 20 item 3, found by the damage matrix): SQLite reads a page past the file's end as
/// zeros, so a lookup could answer "absent" for a key that is there. The open compares the file with the size its
/// header records, counting the pages the write-ahead log still holds.
/// </summary>
public sealed class SqliteTruncationTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_database_file_cut_short_is_refused_at_open_naming_it(bool killedWriter)
    {
        var path = _directory.Sub("store");
        var (code, output) = ChildProcess.Run(["damage-fill", path, "Sqlite", "Relaxed", "base", "2000", "close"]);
        Assert.True(code == 0, output);
        if (killedWriter)
        {
            // The tail lives in the write-ahead log: SQLite then takes the database's size from the log, not the file.
            using var child = ChildProcess.Start(["damage-fill", path, "Sqlite", "Relaxed", "tail", "200", "hang"]);
            child.WaitForLine(l => l == "FILLED", TimeSpan.FromSeconds(60));
            child.KillHard();
        }

        var dataFile = Path.Combine(path, "store.sqlite");
        var length = new FileInfo(dataFile).Length;
        using (var file = new FileStream(dataFile, FileMode.Open))
        {
            file.SetLength((length * 3 / 4) + 1234); // inside a page, a quarter of the pages gone
        }

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(path).Dispose());
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains($"its database file '{dataFile}' is damaged", error.Message, StringComparison.Ordinal);
        Assert.Contains("the file was truncated", error.Message, StringComparison.Ordinal);
        Assert.Contains(((length * 3 / 4) + 1234).ToString(CultureInfo.InvariantCulture), error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();
}
