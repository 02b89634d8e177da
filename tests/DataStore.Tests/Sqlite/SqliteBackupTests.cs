using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sqlite;

/// <summary>What only SQLite's backup promises: the copy is a WAL-mode database, and a long backup does not restart while others write.</summary>
public sealed class SqliteBackupTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task The_copy_is_a_WAL_mode_database_with_no_leftover_WAL()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Sqlite });
        store.Put("k"u8, "v"u8);

        var result = await store.BackupAsync(_directory.Sub("backup"), cancellationToken: TestContext.Current.CancellationToken);

        var header = new byte[20];
        await using (var file = File.OpenRead(Path.Combine(result.Path, "store.sqlite")))
        {
            await file.ReadExactlyAsync(header, TestContext.Current.CancellationToken);
        }

        Assert.Equal("SQLite format 3\0"u8.ToArray(), header[..16]);
        Assert.Equal([2, 2], header[18..20]); // file format versions 2: WAL
        Assert.False(File.Exists(Path.Combine(result.Path, "store.sqlite-wal")));
    }

    [Fact]
    public async Task A_backup_of_many_pages_reports_progress_and_finishes_while_a_thread_writes()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Sqlite });
        var batch = new WriteBatch();
        for (var i = 0; i < 5_000; i++)
        {
            batch.Put(Bytes.Utf8($"big/{i:D5}"), Bytes.Random(4_000, i)); // about 20 MB: several backup steps
        }

        store.Write(batch);
        using var stop = new CancellationTokenSource();
        var writes = 0;
        var writer = Task.Run(
            () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    store.Put(Bytes.Utf8($"w/{writes:D8}"), [1]);
                    writes++;
                }
            },
            TestContext.Current.CancellationToken);
        var reports = new List<StoreProgress>();
        var backup = _directory.Sub("backup");
        System.IO.Directory.CreateDirectory(backup);

        // The backend's copy itself, without StoreBackup's throttle (at most ten reports a second), so every step reports.
        await Task.Run(() => EngineMaintenance.Of(store).Backup(backup, new SynchronousProgress<StoreProgress>(reports.Add), TestContext.Current.CancellationToken), TestContext.Current.CancellationToken);
        await stop.CancelAsync();
        await writer;

        Assert.True(reports.Count >= 5, $"{reports.Count} progress reports for about 20 MB in steps of 1,024 pages");
        Assert.Contains(reports, r => r.TotalBytes > 20_000_000 && r.Bytes < r.TotalBytes);
        Assert.Equal(reports[^1].TotalBytes, reports[^1].Bytes);
        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = backup });
        Assert.Equal(5_000, StoreAssert.Scan(copy, "big/"u8.ToArray(), keysOnly: true).Count);
        TestContext.Current.TestOutputHelper?.WriteLine($"{reports.Count} progress reports; {writes} writes by the other thread");
    }

    public void Dispose() => _directory.Dispose();
}
