using System.Buffers.Binary;
using System.Globalization;
using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// A large batch applies on two threads, each owning whole leaf directories (TreeWriter.Halves): every key lands whole,
/// leaves split within their limit meanwhile, and a failure on the second thread or a kill -9 is completed from the journal
/// like any other.
/// </summary>
public sealed class FileSystemTwoThreadBatchTests : IDisposable
{
    private const int Limit = 32;
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    // Keys spread over 16 first bytes (so over several leaves), every tenth long enough to get a hashed file name.
    private static byte[] Key(int i) => Bytes.Utf8($"{i % 16:x}/{i:D6}{(i % 10 == 0 ? new string('l', 300) : "")}");

    private static WriteBatch Batch(int from, int count, string value)
    {
        var batch = new WriteBatch();
        for (var i = from; i < from + count; i++)
        {
            batch.Put(Key(i), Bytes.Utf8($"{value}{i}"));
        }

        return batch;
    }

    private static IKeyValueStore Preloaded(string path)
    {
        var store = FileSystemTestStore.Open(path, Limit);
        store.Write(Batch(0, 200, "old"));
        return store;
    }

    [Fact]
    public void A_large_batch_applies_on_two_threads_and_splits_its_leaves_within_the_limit()
    {
        using var store = Preloaded(StorePath);
        var batch = Batch(100, 1_000, "new"); // 100 overwrites, 900 new keys: most leaves split during the batch
        batch.Delete(Key(5));
        TreeWriter.TwoThreadBatchesForTests = 0;

        store.Write(batch);

        Assert.Equal(1, TreeWriter.TwoThreadBatchesForTests);
        Assert.False(store.HaveKey(Key(5)));
        for (var i = 0; i < 1_100; i++)
        {
            Assert.Equal(i == 5 ? null : Bytes.Utf8($"{(i < 100 ? "old" : "new")}{i}"), store.Get(Key(i)));
        }

        Assert.Equal(1_099, StoreAssert.Scan(store, [], keysOnly: true).Count);
        var (leaf, _) = FileSystemTestStore.LargestDirectories(StorePath);
        Assert.True(leaf <= Limit, $"a leaf directory holds {leaf} entries");
    }

    [Fact]
    public void A_failure_on_the_second_thread_keeps_the_journal_and_the_next_call_completes_the_batch()
    {
        using var store = Preloaded(StorePath);
        var caller = Environment.CurrentManagedThreadId;
        var applied = 0;
        TreeWriter.BeforeOperationForTests = () =>
        {
            if (Environment.CurrentManagedThreadId != caller && Interlocked.Increment(ref applied) > 100)
            {
                throw new IndexOutOfRangeException("injected on the second thread");
            }
        };
        DataStoreException error;
        try
        {
            error = Assert.Throws<DataStoreException>(() => store.Write(Batch(100, 1_000, "new")));
        }
        finally
        {
            TreeWriter.BeforeOperationForTests = null;
        }

        Assert.IsType<IndexOutOfRangeException>(error.InnerException);
        Assert.True(File.Exists(Path.Combine(StorePath, BatchJournal.FileName)), "the journal of the half-applied batch stays");
        Assert.Equal(Bytes.Utf8("new1099"), store.Get(Key(1_099)));
        Assert.False(File.Exists(Path.Combine(StorePath, BatchJournal.FileName)));
        Assert.Equal(1_100, StoreAssert.Scan(store, [], keysOnly: true).Count);
    }

    [Fact]
    public void Two_thread_batches_are_all_or_nothing_after_kill_9()
    {
        // 5,000 keys: past one leaf of 4,096 after the first batch, so the later ones apply on two threads.
        const int keys = 5_000;
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        for (var round = 0; round < 2; round++)
        {
            var path = _directory.Sub($"killed-{round}");
            int acknowledged;
            using (var child = ChildProcess.Start(["wide-batch-loop", path, "FileSystem", "Relaxed", keys.ToString(CultureInfo.InvariantCulture), "1000"]))
            {
                child.WaitForLine(l => l == $"ACK {2 + round}", TimeSpan.FromSeconds(120));
                Thread.Sleep(random.Next(200)); // the next batch is being journaled or applied
                child.KillHard();
                acknowledged = int.Parse(child.LastLine("ACK ")![4..], CultureInfo.InvariantCulture);
            }

            var journaled = File.Exists(Path.Combine(path, BatchJournal.FileName));
            TestContext.Current.SendDiagnosticMessage($"round {round}: killed after batch {acknowledged}, {(journaled ? "with" : "without")} a journal left");
            using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.FileSystem });
            var values = Enumerable.Range(0, keys).Select(k => BinaryPrimitives.ReadInt32BigEndian(store.Get(WideKey(k)))).Distinct().ToList();
            Assert.True(values.Count == 1, $"half a batch after kill -9: values {string.Join(", ", values)} (seed {seed}, round {round})");
            Assert.True(values[0] >= acknowledged, $"batch {acknowledged} was acknowledged but the store holds {values[0]} (seed {seed}, round {round})");
        }
    }

    // The keys of the TestHost's wide-batch-loop.
    private static byte[] WideKey(int k)
    {
        var key = new byte[5];
        key[0] = (byte)(k % 16);
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(1), k);
        return key;
    }

    public void Dispose() => _directory.Dispose();
}
