using System.Buffers.Binary;

namespace DataStore.Tests.Conformance;

/// <summary>Rule 8: two processes open one store at once; both read and write; each sees the other's committed writes; contention waits.</summary>
public abstract class ProcessesContract : StoreContract
{
    private const string Rule = "8: the UI and the CLI share one store";

    private string[] Args(string command, params string[] rest) => [command, StorePath, Backend.ToString(), "-", .. rest];

    [Fact]
    public void Two_processes_write_at_once_and_each_sees_the_others_writes()
    {
        RequireCapability(StoreCapabilities.SharedAcrossProcesses, Rule);
        var store = Open();
        using var child = ChildProcess.Start(Args("put-loop", "child", "300"));
        for (var i = 1; i <= 300; i++)
        {
            store.Put([.. "parent/"u8, (byte)(i >> 8), (byte)i], [1]);
        }

        Assert.Equal(0, child.WaitForExit(TimeSpan.FromSeconds(60)));
        Assert.Equal(300, StoreAssert.Scan(store, "child/"u8.ToArray(), keysOnly: true).Count);

        var (code, output) = ChildProcess.Run(Args("count", "parent/"));
        Assert.Equal(0, code);
        Assert.Contains("COUNT 300", output);
    }

    [Fact]
    public void Compare_and_swap_increments_from_three_processes_lose_nothing()
    {
        RequireCapability(StoreCapabilities.SharedAcrossProcesses, Rule);
        var store = Open();
        var children = Enumerable.Range(0, 3).Select(_ => ChildProcess.Start(Args("cas-increment", "150"))).ToList();
        foreach (var child in children)
        {
            Assert.True(child.WaitForExit(TimeSpan.FromSeconds(90)) == 0, child.Output);
            child.Dispose();
        }

        Assert.Equal(450, BinaryPrimitives.ReadInt32BigEndian(store.Get("counter"u8)));
    }

    [Fact]
    public void A_reader_process_never_sees_half_of_a_batch_from_a_writer_process()
    {
        RequireCapability(StoreCapabilities.SharedAcrossProcesses, Rule);
        Open().Write(new WriteBatch().Put("pair/a"u8, [0, 0, 0, 0]).Put("pair/b"u8, [0, 0, 0, 0]));
        using var reader = ChildProcess.Start(Args("check-pairs", "400"));
        using var writer = ChildProcess.Start(Args("batch-loop", "400"));

        Assert.True(writer.WaitForExit(TimeSpan.FromSeconds(90)) == 0, writer.Output);
        Assert.True(reader.WaitForExit(TimeSpan.FromSeconds(90)) == 0, reader.Output);
        Assert.NotNull(reader.LastLine("READS"));
    }
}
