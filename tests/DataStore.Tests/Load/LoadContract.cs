using System.Buffers.Binary;
using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Load;

/// <summary>
/// Load (issue 20 item 8): eight threads of point reads, writes, batches, compare-and-swaps and scans on one open store,
/// while a second process writes single puts, batches and compare-and-swaps to the same store, for a fixed time. No call
/// fails, every thread reads back what it wrote throughout, every write the other process acknowledged is there at the
/// end, and this process's managed heap, open handles and threads stay flat (sampled, judged on the trend).
/// </summary>
/// <remarks>
/// CI runs <see cref="DefaultSeconds"/> seconds per backend. A soak:
/// <c>DATASTORE_LOAD_SECONDS=600 dotnet test tests/DataStore.Tests -c Release --filter "FullyQualifiedName~LoadContract"</c>;
/// <c>DATASTORE_LOAD_SEED=n</c> replays the threads' choices. The tests run alone (no other test's memory in the samples).
/// </remarks>
[Collection(MemoryMeasurements.Name)]
public abstract class LoadContract : StoreContract
{
    public const int DefaultSeconds = 4;
    private const int Threads = 8;
    private const string Rule = "7 and 8 under load: threads and a second process";

    [Fact]
    public void Eight_threads_and_a_second_process_lose_no_write_and_hold_memory_handles_and_threads_flat()
    {
        RequireCapability(StoreCapabilities.SharedAcrossProcesses, Rule);
        var seed = Setting("DATASTORE_LOAD_SEED") ?? Random.Shared.Next();
        var seconds = Setting("DATASTORE_LOAD_SECONDS") ?? DefaultSeconds;
        var context = $"{Backend}, seed {seed}, {seconds} s";
        var store = Open();
        using var child = ChildProcess.Start(["mixed-loop", StorePath, Backend.ToString(), "-", seed.ToString(CultureInfo.InvariantCulture), int.MaxValue.ToString(CultureInfo.InvariantCulture)]);
        child.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal), TimeSpan.FromSeconds(60));

        var workers = Enumerable.Range(0, Threads).Select(t => new LoadWorker(store, t, seed)).ToList();
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(seconds));
        using (var sampler = new ResourceSampler(TimeSpan.FromMilliseconds(Math.Max(100, seconds * 1000 / 40))))
        {
            var failures = new List<Exception>();
            var threads = workers.Select(w => new Thread(() => Guard(() => w.Run(stop.Token), failures, stop)) { Name = "load" }).ToList();
            foreach (var thread in threads)
            {
                thread.Start();
            }

            foreach (var thread in threads)
            {
                thread.Join();
            }

            Assert.True(failures.Count == 0, $"{failures.Count} load threads failed ({context}): {string.Join(" | ", failures)}");
            sampler.AssertFlat(context);
        }

        child.KillHard();
        var output = child.Output;
        Assert.False(output.Contains("CONFLICT", StringComparison.Ordinal) || output.Contains("ERROR", StringComparison.Ordinal) || output.Contains("Exception", StringComparison.Ordinal),
            $"the other process failed ({context}): {output[Math.Max(0, output.Length - 2000)..]}");
        foreach (var worker in workers)
        {
            worker.CheckAll(store);
        }

        var acknowledged = CheckOtherProcess(store, output, context);
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"{context}: {workers.Sum(w => w.Operations):N0} operations on {Threads} threads, {acknowledged:N0} writes acknowledged by the other process");
    }

    // An exception must not escape a thread (it would end the test process): keep it, stop the others, fail after the join.
    private static void Guard(Action run, List<Exception> failures, CancellationTokenSource stop)
    {
        try
        {
            run();
        }
        catch (Exception e)
        {
            lock (failures)
            {
                failures.Add(e);
            }

            stop.Cancel();
        }
    }

    /// <summary>Checks every write the other process acknowledged (see TestHost's mixed-loop) and returns how many there were.</summary>
    private static int CheckOtherProcess(IKeyValueStore store, string output, string context)
    {
        var acknowledged = output.Split('\n').Where(l => l.StartsWith("ACK ", StringComparison.Ordinal)).Select(l => (Kind: l[4], Number: int.Parse(l[6..], CultureInfo.InvariantCulture))).ToList();
        Assert.NotEmpty(acknowledged);
        foreach (var (kind, number) in acknowledged)
        {
            var present = kind switch
            {
                'P' => store.Get(Key("put/", number)) is { } value && BinaryPrimitives.ReadInt32BigEndian(value) == number,
                'B' => store.HaveKey([.. Key("batch/", number), (byte)'a']) && store.HaveKey([.. Key("batch/", number), (byte)'b']),
                _ => store.Get("counter"u8) is { } counter && BinaryPrimitives.ReadInt32BigEndian(counter) >= number,
            };
            Assert.True(present, $"the other process's acknowledged write {kind} {number} is missing ({context})");
        }

        return acknowledged.Count;
    }

    private static byte[] Key(string tag, int i)
    {
        var key = new byte[tag.Length + 4];
        System.Text.Encoding.ASCII.GetBytes(tag, key);
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(tag.Length), i);
        return key;
    }

    private static int? Setting(string name) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null;
}
