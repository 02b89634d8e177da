namespace DataStore.Tests.Conformance;

/// <summary>Rule 8, read side: several processes read one store at once while this process holds it open.</summary>
public abstract class ReadProcessesContract : ReadContract
{
    [Fact]
    public void Three_processes_read_the_store_at_once_while_it_is_open_here()
    {
        RequireCapability(StoreCapabilities.SharedAcrossProcesses, "8: the UI and the CLI share one store");
        var pairs = Enumerable.Range(0, 2_000).Select(i => (Bytes.Utf8($"mod/{i:D5}"), Bytes.Random(100, i))).ToList();
        var store = OpenWith(pairs);
        using var cursor = store.ScanPrefix("mod/"u8);
        Assert.True(cursor.MoveNext());
        var children = Enumerable.Range(0, 3).Select(_ => ChildProcess.Start(["read-all", StorePath, Backend.ToString(), "-"])).ToList();
        foreach (var child in children)
        {
            Assert.True(child.WaitForExit(TimeSpan.FromSeconds(90)) == 0, child.Output);
            Assert.Equal("READ 2000", child.LastLine("READ"));
            child.Dispose();
        }

        StoreAssert.Holds(store, pairs[1_999].Item1, pairs[1_999].Item2);
    }
}
