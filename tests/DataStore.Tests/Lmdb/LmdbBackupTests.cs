using System.Buffers.Binary;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>LMDB backups against map growth: the copy holds the map still, so growth must wait for it without deadlocking, in this process or another.</summary>
public sealed class LmdbBackupTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Backups_finish_while_a_writer_thread_grows_the_map()
    {
        using var store = LmdbTestStores.OpenSmall(_directory.Sub("store"), timeout: TimeSpan.FromSeconds(20));
        var mapBefore = store.MapSize;
        var acked = 0;
        using var stop = new CancellationTokenSource();
        var writer = Task.Run(
            () =>
            {
                for (var i = 1; i <= 2_000 && !stop.IsCancellationRequested; i++)
                {
                    store.Put(Key(i), LmdbTestStores.Filled(32_768, i));
                    Volatile.Write(ref acked, i);
                }
            },
            TestContext.Current.CancellationToken);

        for (var round = 0; round < 4; round++)
        {
            var ackedBefore = Volatile.Read(ref acked);
            var result = await store.BackupAsync(_directory.Sub($"backup-{round}"), cancellationToken: TestContext.Current.CancellationToken);
            CheckPrefix(result.Path, ackedBefore);
        }

        await stop.CancelAsync();
        await writer;
        Assert.True(store.MapSize > mapBefore, $"the map never grew ({store.MapSize} bytes), so the test did not race growth");
    }

    [Fact]
    public async Task A_backup_finishes_while_another_process_grows_the_map()
    {
        var path = _directory.Sub("store");
        using var store = LmdbTestStores.OpenSmall(path, timeout: TimeSpan.FromSeconds(20));
        var mapBefore = store.MapSize;
        using var child = ChildProcess.Start(["fill", path, "Lmdb", "-", "big", "1504", "65536"]);
        child.WaitForLine(line => line == "ACK 64", TimeSpan.FromSeconds(60));

        for (var round = 0; round < 3; round++)
        {
            var result = await store.BackupAsync(_directory.Sub($"backup-{round}"), cancellationToken: TestContext.Current.CancellationToken);
            using var copy = KeyValueStore.Open(new DataStoreOptions { Path = result.Path, Timeout = TimeSpan.FromSeconds(10) });
            Assert.True(StoreAssert.Scan(copy, "big/"u8.ToArray(), keysOnly: true).Count % 16 == 0, "a 16-put batch of the child's was split by the backup");
        }

        Assert.Equal(0, child.WaitForExit(TimeSpan.FromSeconds(90)));
        var final = await store.BackupAsync(_directory.Sub("backup-final"), cancellationToken: TestContext.Current.CancellationToken);
        using var last = KeyValueStore.Open(new DataStoreOptions { Path = final.Path, Timeout = TimeSpan.FromSeconds(10) });
        Assert.Equal(1_504, StoreAssert.Scan(last, "big/"u8.ToArray(), keysOnly: true).Count);
        Assert.True(new FileInfo(Path.Combine(path, "store.lmdb")).Length > mapBefore, "the child never grew the store past its first map");
    }

    public void Dispose() => _directory.Dispose();

    private static void CheckPrefix(string backup, int ackedBefore)
    {
        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = backup, Timeout = TimeSpan.FromSeconds(10) });
        var seen = StoreAssert.Scan(copy, "w/"u8.ToArray(), keysOnly: true).Select(p => BinaryPrimitives.ReadInt32BigEndian(p.Key.AsSpan(2))).ToList();
        Assert.True(seen.SequenceEqual(Enumerable.Range(1, seen.Count)), "the backup's writes have gaps");
        Assert.True(seen.Count >= ackedBefore, $"the backup holds {seen.Count} writes; {ackedBefore} were acknowledged before it began");
    }

    private static byte[] Key(int i)
    {
        var key = new byte[6];
        "w/"u8.CopyTo(key);
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(2), i);
        return key;
    }
}
