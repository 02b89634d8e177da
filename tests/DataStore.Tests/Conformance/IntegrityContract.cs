namespace DataStore.Tests.Conformance;

/// <summary>Issue 7, verify: the engine's own integrity check passes a good store and finds a damaged one, run in a child process because an engine may crash on a damaged file.</summary>
public abstract class IntegrityContract : StoreContract
{
    private const string Rule = "verify: the engine's own integrity check";

    [Fact]
    public void A_good_store_checks_clean_in_this_process_and_in_a_child()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        Fill(store);
        Assert.Empty(EngineMaintenance.CheckIntegrity(store, TestContext.Current.CancellationToken));
        store.Dispose();

        var (code, output) = ChildProcess.Run(["check-integrity", StorePath, Backend.ToString(), "-"]);
        Assert.True(code == 0 && output.Contains("HEALTHY", StringComparison.Ordinal), output);
    }

    [Fact]
    public void The_check_finds_a_damaged_data_file()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        Fill(store);
        store.Compact(); // RocksDB: puts the data in .sst files
        store.Dispose();
        var damaged = StoreDamage.Apply(Backend, StorePath);

        var (code, output) = ChildProcess.Run(["check-integrity", StorePath, Backend.ToString(), "-"]);
        TestContext.Current.TestOutputHelper?.WriteLine($"damaged {damaged}; the child exited {code}:\n{output}");
        Assert.DoesNotContain("HEALTHY", output, StringComparison.Ordinal);
        var reported = code == 1 && output.Contains("DAMAGED", StringComparison.Ordinal);
        var refused = code == 3 && output.Contains("ERROR Corrupt", StringComparison.Ordinal); // a DataStoreException naming the cause
        Assert.True(reported || refused, $"the child neither reported damage nor refused the store with a DataStoreException (exit {code}):\n{output}");
    }

    // Single puts: FileSystem makes a batch durable (a flush per file, or a file-system sync), which is slow in a test.
    private static void Fill(IKeyValueStore store)
    {
        for (var i = 0; i < 3_000; i++)
        {
            store.Put(Bytes.Utf8($"pair/{i:D6}"), Bytes.Random(1_000, i));
        }

        store.Put(Bytes.Key(1_000, 7, 1), Bytes.Random(100, 1)); // a long key (LMDB's slot records, FileSystem's long names)
    }
}
