using System.Buffers.Binary;
using System.Globalization;
using DataStore.RocksDb;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

/// <summary>
/// Issue 23 item 4: a closed RocksDb store lives in checksummed table files, and damage to the WAL of a store that was
/// never closed (kill -9) is an error naming the file, never fewer keys; a torn last record is what a crash leaves and opens.
/// </summary>
public sealed class RocksDbDamageTests : IDisposable
{
    private const int Keys = 20_000;
    private const int ValueSize = 400;
    private const int BatchSize = 16; // the test host's fill commits 16 keys a batch

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_cleanly_closed_store_is_in_table_files_not_only_in_its_WAL()
    {
        using (var store = Open())
        {
            for (var i = 0; i < 2_000; i++)
            {
                store.Put(Key(i), Value(i));
            }
        }

        Assert.NotEmpty(Directory.GetFiles(StorePath, "*.sst"));
        Assert.All(Directory.GetFiles(StorePath, "*.log"), log => Assert.Equal(0, new FileInfo(log).Length));
        using var reopened = Open();
        StoreAssert.Holds(reopened, Key(1_999), Value(1_999));
    }

    [Fact]
    public void Zeroed_bytes_in_the_middle_of_the_WAL_of_a_killed_process_are_an_error_naming_the_file()
    {
        var wal = FillAndKill();
        using (var stream = new FileStream(wal, FileMode.Open, FileAccess.Write))
        {
            stream.Position = stream.Length / 2 / 4_096 * 4_096;
            stream.Write(new byte[4_096]);
        }

        var error = Assert.Throws<StoreFormatException>(() => Open().Dispose());
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(Path.GetFileName(wal), error.Message);
    }

    [Fact]
    public void Zeroed_bytes_before_the_last_WAL_sync_are_an_error_naming_the_file_also_after_a_restart()
    {
        // A restart (another boot) lets recovery stop at a hole in the WAL's unsynced tail, which a power loss can leave;
        // a hole in what the store recorded as synced is damage all the same.
        var wal = FillAndKill(waitForSync: true);
        using (var stream = new FileStream(wal, FileMode.Open, FileAccess.Write))
        {
            stream.Position = stream.Length / 2 / 4_096 * 4_096;
            stream.Write(new byte[4_096]);
        }

        var (_, output) = ChildProcess.Run(["power-loss-read", "-", "RocksDb", "-", StorePath], TimeSpan.FromMinutes(2), ["env", "DATASTORE_BOOT_ID=another-boot"]);
        var error = output.Split('\n').SingleOrDefault(line => line.StartsWith("ERROR ", StringComparison.Ordinal));
        Assert.True(error is not null && error.StartsWith("ERROR StoreFormatException", StringComparison.Ordinal) && error.Contains(Path.GetFileName(wal), StringComparison.Ordinal),
            $"expected an error naming {Path.GetFileName(wal)}, got: {output}");
    }

    [Fact]
    public void A_torn_last_WAL_record_of_a_killed_process_opens_with_every_earlier_batch()
    {
        var wal = FillAndKill();
        using (var stream = new FileStream(wal, FileMode.Open, FileAccess.Write))
        {
            stream.SetLength(stream.Length - (ValueSize * BatchSize / 2)); // half of the last batch's record
        }

        using var store = Open();
        var count = 0;
        using (var cursor = store.ScanPrefix("k/"u8))
        {
            while (cursor.MoveNext())
            {
                var i = BinaryPrimitives.ReadInt32BigEndian(cursor.Key[2..]);
                Assert.True(cursor.Value.SequenceEqual(Value(i)), $"key {i} came back with a changed value");
                count++;
            }
        }

        Assert.Equal(Keys - BatchSize, count);
    }

    [Fact]
    public async Task Flipped_bytes_in_a_table_file_are_reported_by_verify()
    {
        using (var store = Open())
        {
            for (var i = 0; i < Keys; i++)
            {
                store.Put(Key(i), Value(i));
            }
        }

        var damaged = StoreDamage.Apply(StoreBackend.RocksDb, StorePath);

        using var reopened = Open();
        var report = await reopened.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine($"damaged {damaged}: {string.Join(" | ", report.Problems)}");
        Assert.False(report.IsHealthy, $"verify found nothing wrong after {damaged} was damaged");
        Assert.Contains(report.Problems, problem => problem.Contains("checksum", StringComparison.OrdinalIgnoreCase) || problem.Contains("Corruption", StringComparison.Ordinal));
    }

    public void Dispose() => _directory.Dispose();

    // The test host's fill writes k/{i} = i repeated ValueSize times.
    internal static byte[] Key(int i)
    {
        var key = new byte[6];
        "k/"u8.CopyTo(key);
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(2), i);
        return key;
    }

    private static byte[] Value(int i) => Enumerable.Repeat((byte)i, ValueSize).ToArray();

    private IKeyValueStore Open() =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.RocksDb, Timeout = TimeSpan.FromSeconds(10) });

    // A child writes every key and is killed with kill -9 before it can close the store; returns the WAL holding them.
    // With waitForSync, the kill waits until the store has recorded a background WAL sync covering every key.
    private string FillAndKill(bool waitForSync = false)
    {
        using (var child = ChildProcess.Start(["fill-and-hang", StorePath, "RocksDb", "-", "k", Keys.ToString(CultureInfo.InvariantCulture), ValueSize.ToString(CultureInfo.InvariantCulture)]))
        {
            child.WaitForLine(line => line == "FILLED", TimeSpan.FromSeconds(120));
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (waitForSync && !(RocksDbSyncMark.Read(StorePath) is { Sequence: >= Keys }))
            {
                Assert.True(waited.Elapsed < TimeSpan.FromSeconds(60), "the store recorded no WAL sync covering every key within 60 s");
                Thread.Sleep(50);
            }

            child.KillHard();
        }

        Assert.Empty(Directory.GetFiles(StorePath, "*.sst"));
        return Directory.GetFiles(StorePath, "*.log").MaxBy(log => new FileInfo(log).Length)!;
    }
}
