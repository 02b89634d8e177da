namespace DataStore.Tests.Lmdb;

/// <summary>A process killed while it held a scan leaves a reader slot that pins old pages; opening the store clears it.</summary>
public sealed class LmdbStaleReaderTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_reader_slot_left_by_a_killed_process_is_cleared_on_open_so_pages_are_reused()
    {
        // A process that keeps the store open, so LMDB's lock file is not reset when the next process opens it.
        using var keeper = ChildProcess.Start(["hold-open", StorePath, "Lmdb", "-", "60000"]);
        keeper.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), TimeSpan.FromSeconds(30));
        using (var holder = ChildProcess.Start(["hold-scan", StorePath, "Lmdb", "-", "60000"]))
        {
            holder.WaitForLine(l => l == "SCANNING", TimeSpan.FromSeconds(30));
            holder.KillHard();
        }

        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb });
        var value = new byte[16 << 10];
        for (var i = 0; i < 1_000; i++)
        {
            value[0] = (byte)i;
            store.Put("hot"u8, value);
        }

        // Each overwrite frees the previous value's pages; with the dead reader's snapshot still pinned they could
        // never be reused and the file would grow past 16 MiB.
        var size = new FileInfo(Path.Combine(StorePath, DataStore.Lmdb.LmdbEnvironment.DataFile)).Length;
        Assert.True(size < 4 << 20, $"the data file grew to {size} bytes: the dead reader's slot still pins old pages");
    }

    public void Dispose() => _directory.Dispose();
}
