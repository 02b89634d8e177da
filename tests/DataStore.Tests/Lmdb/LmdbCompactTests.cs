using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>Compact replaces the data file, so it refuses while another process has the store open, and works once it is alone.</summary>
public sealed class LmdbCompactTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void Compact_refuses_while_another_process_has_the_store_open_and_works_once_alone()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb, Timeout = TimeSpan.FromMilliseconds(500) });
        store.Put("a"u8, new byte[100_000]);
        store.DeletePrefix("a"u8);
        store.Put("b"u8, "2"u8);

        using (var holder = ChildProcess.Start(["hold-open", StorePath, "Lmdb", "-", "4000"]))
        {
            holder.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), TimeSpan.FromSeconds(30));
            var error = Assert.Throws<StoreTimeoutException>(store.Compact);
            Assert.Equal(StoreFailure.Timeout, error.Cause);
            Assert.Contains("another process", error.Message);
            StoreAssert.Holds(store, "b"u8.ToArray(), "2"u8.ToArray());
            Assert.Equal(0, holder.WaitForExit(TimeSpan.FromSeconds(30)));
        }

        store.Compact();
        StoreAssert.KeysEqual(["b"u8.ToArray()], StoreAssert.Scan(store, []));
        store.Put("c"u8, "3"u8);
        Assert.Equal(2, StoreAssert.Scan(store, []).Count);
    }

    public void Dispose() => _directory.Dispose();
}
