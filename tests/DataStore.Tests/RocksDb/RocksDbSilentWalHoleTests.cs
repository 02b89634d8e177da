using System.Buffers.Binary;
using DataStore.RocksDb;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.RocksDb;

/// <summary>
/// Issue 20: a power loss that keeps a later block of a Relaxed store's unsynced WAL and loses an earlier one from a
/// record's start leaves a hole that RocksDB's reader passes over without a word (it takes a header of zeros for
/// preallocated space), so every recovery mode replayed the later writes without the earlier ones.
/// </summary>
public sealed class RocksDbSilentWalHoleTests : IDisposable
{
    private const int RecordSize = 128; // a put of a 6-byte key and a 100-byte value: 7-byte header, 12-byte batch header, 109 bytes of put
    private const int ValueSize = 100;
    private const int RecordsPerBlock = RocksDbWalWalk.BlockSize / RecordSize; // so every block starts with a whole record
    private const int Keys = 3 * RecordsPerBlock;

    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(RecordsPerBlock + 100, 10)] // lost from the second block's 100th record; a sync covered the first 10 puts
    [InlineData(0, 0)] // lost from the WAL's start, nothing synced
    public void A_hole_the_WAL_reader_passes_over_costs_every_write_after_it_not_only_the_ones_in_it(int firstLost, int synced)
    {
        var image = _directory.Sub("image");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.RocksDb, Durability = Durability.Relaxed }))
        {
            for (var i = 0; i < Keys; i++)
            {
                store.Put(RocksDbDamageTests.Key(i), new byte[ValueSize]); // k/{i}
            }

            CopyFiles(_directory.Sub("store"), image); // what a power loss leaves when the page cache was written back: every put in the WAL
        }

        var wal = Directory.GetFiles(image, "*.log").Single(log => new FileInfo(log).Length > 0);
        using (var stream = new FileStream(wal, FileMode.Open, FileAccess.ReadWrite))
        {
            var header = new byte[7];
            stream.Position = 2 * RocksDbWalWalk.BlockSize;
            stream.ReadExactly(header);
            Assert.True(header[6] == 1 && BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(4)) == RecordSize - 7,
                $"the third block of the WAL does not start with a whole {RecordSize}-byte record: the test's layout no longer holds");

            // The disk kept the third block and lost what came before it from the record of put firstLost on.
            stream.Position = (long)firstLost * RecordSize;
            stream.Write(new byte[2 * RocksDbWalWalk.BlockSize - stream.Position]);
        }

        RocksDbSyncMark.TryWrite(image, (ulong)synced, durable: false, NullLogger.Instance);
        var kept = ReadKeys(image);
        Assert.True(kept.SequenceEqual(Enumerable.Range(0, firstLost)),
            $"expected puts 0..{firstLost - 1} and nothing after them; the store came back with {kept.Count} puts, {kept.Count(k => k >= firstLost)} of them after the hole");
    }

    public void Dispose() => _directory.Dispose();

    // Opened by a child that runs as another boot, as after a power loss.
    private static List<int> ReadKeys(string store)
    {
        var (_, output) = ChildProcess.Run(["power-loss-read", "-", "RocksDb", "-", store], TimeSpan.FromMinutes(2), ["env", "DATASTORE_BOOT_ID=another-boot"]);
        Assert.DoesNotContain("\nERROR ", "\n" + output, StringComparison.Ordinal);
        return [.. output.Split('\n').Where(line => line.StartsWith("PAIR ", StringComparison.Ordinal))
            .Select(line => BinaryPrimitives.ReadInt32BigEndian(Convert.FromHexString(line.Split(' ')[1]).AsSpan(2)))];
    }

    // The open store's files but its lock files (held, and made anew by the next open).
    private static void CopyFiles(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.GetFiles(from).Where(f => !Path.GetFileName(f).Contains("lock", StringComparison.OrdinalIgnoreCase) && !f.EndsWith(".open", StringComparison.Ordinal)))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        }
    }
}
