using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// A batch that fails for any reason, a bug included (injected here), never leaves a store that cannot be opened:
/// its journal is completed whole by the next operation or by another process opening the store, and a failure
/// inside that recovery is a <see cref="DataStoreException"/> naming the store (issue 23 item 1).
/// </summary>
public sealed class FileSystemBatchFailureTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private static WriteBatch FiveKeys()
    {
        var batch = new WriteBatch();
        for (var i = 0; i < 5; i++)
        {
            batch.Put(Bytes.Utf8($"b/{i}"), Bytes.Utf8("new"));
        }

        return batch;
    }

    private static Action FailAfter(int operations)
    {
        var done = 0;
        return () =>
        {
            if (done++ >= operations)
            {
                throw new IndexOutOfRangeException("injected");
            }
        };
    }

    private string CountInChild()
    {
        var (code, output) = ChildProcess.Run(["count", StorePath, "FileSystem", "-", "b/"]);
        Assert.True(code == 0, output);
        return output.Split('\n').Single(l => l.StartsWith("COUNT", StringComparison.Ordinal));
    }

    [Fact]
    public void A_batch_that_fails_half_applied_is_completed_whole_by_another_process_and_by_the_next_call()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        store.Put("b/0"u8, "old"u8);
        TreeWriter.BeforeOperationForTests = FailAfter(2);
        DataStoreException error;
        try
        {
            error = Assert.Throws<DataStoreException>(() => store.Write(FiveKeys()));
        }
        finally
        {
            TreeWriter.BeforeOperationForTests = null;
        }

        Assert.Contains(StorePath, error.Message, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(StorePath, BatchJournal.FileName)), "the journal of the half-applied batch stays");
        Assert.Equal("COUNT 5", CountInChild());
        Assert.False(File.Exists(Path.Combine(StorePath, BatchJournal.FileName)));
        Assert.Equal("new"u8.ToArray(), store.Get("b/0"u8));
        Assert.Equal(5, StoreAssert.Scan(store, "b/"u8.ToArray()).Count);
    }

    [Fact]
    public void The_same_process_completes_a_failed_batch_on_its_next_call()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        TreeWriter.BeforeOperationForTests = FailAfter(3);
        try
        {
            Assert.Throws<DataStoreException>(() => store.Write(FiveKeys()));
        }
        finally
        {
            TreeWriter.BeforeOperationForTests = null;
        }

        Assert.Equal("new"u8.ToArray(), store.Get("b/4"u8));
        Assert.Equal(5, StoreAssert.Scan(store, "b/"u8.ToArray()).Count);
    }

    [Fact]
    public void A_failure_inside_recovery_is_a_DataStoreException_naming_the_store_and_a_later_open_completes_the_batch()
    {
        FileSystemTestStore.Open(StorePath).Dispose();
        BatchJournal.Write(FiveKeys(), Path.Combine(StorePath, "tmp", "1-1.tmp"), Path.Combine(StorePath, BatchJournal.FileName));
        var options = new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem };
        TreeWriter.BeforeOperationForTests = FailAfter(1);
        try
        {
            var error = Assert.Throws<DataStoreException>(() => KeyValueStore.Open(options).Dispose());
            Assert.Contains(StorePath, error.Message, StringComparison.Ordinal);
            Assert.Contains("journal", error.Message, StringComparison.Ordinal);
            Assert.IsType<IndexOutOfRangeException>(error.InnerException);
        }
        finally
        {
            TreeWriter.BeforeOperationForTests = null;
        }

        // The failed open released its locks and kept the journal: another process completes the whole batch.
        Assert.Equal("COUNT 5", CountInChild());
        using var store = KeyValueStore.Open(options);
        Assert.Equal(5, StoreAssert.Scan(store, "b/"u8.ToArray()).Count);
    }

    public void Dispose() => _directory.Dispose();
}
