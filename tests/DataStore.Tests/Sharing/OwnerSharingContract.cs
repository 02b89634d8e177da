using System.Diagnostics;
using System.Globalization;
using DataStore.Sharing;
using DataStore.Tests.Cli;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

/// <summary>
/// Rule 8 for an engine one process opens at a time (ADR 0015): the first open owns the store, later ones are its
/// clients, and the store is handed over when the owner closes or is killed. Real child processes where a process
/// must die.
/// </summary>
public abstract class OwnerSharingContract : StoreContract
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public void The_first_open_owns_the_store_and_a_second_is_its_client()
    {
        var owner = Open();
        var client = Open();

        Assert.Equal(new StoreSharing(StoreRole.Owner, Environment.ProcessId), owner.Sharing);
        Assert.Equal(new StoreSharing(StoreRole.Client, Environment.ProcessId), client.Sharing);
        Assert.Equal(owner.Capabilities, client.Capabilities);
        Assert.True(client.Capabilities.HasFlag(StoreCapabilities.SharedAcrossProcesses));
        owner.Put("a"u8, "1"u8);
        client.Put("b"u8, "2"u8);
        StoreAssert.Holds(client, "a"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(owner, "b"u8.ToArray(), "2"u8.ToArray());
    }

    [Fact]
    public void A_graceful_owner_close_hands_the_store_to_its_client()
    {
        var owner = Open();
        var client = Open();
        client.Put("a"u8, "1"u8);

        owner.Dispose();
        client.Put("b"u8, "2"u8);

        Assert.Equal(StoreRole.Owner, client.Sharing.Role);
        StoreAssert.Holds(client, "a"u8.ToArray(), "1"u8.ToArray());
        StoreAssert.Holds(client, "b"u8.ToArray(), "2"u8.ToArray());
    }

    [Fact]
    public void A_scan_open_across_a_hand_over_fails_with_OwnerChanged_and_the_next_scan_works()
    {
        var owner = Open();
        var client = Open();
        for (var i = 0; i < 5_000; i++)
        {
            client.Put([(byte)'k', (byte)(i >> 8), (byte)i], new byte[100]);
        }

        using (var cursor = client.ScanPrefix("k"u8))
        {
            Assert.True(cursor.MoveNext());
            owner.Dispose();
            var error = Assert.Throws<DataStoreException>(() =>
            {
                while (cursor.MoveNext())
                {
                }
            });
            Assert.Equal(StoreFailure.OwnerChanged, error.Cause);
        }

        Assert.Equal(5_000, StoreAssert.Scan(client, "k"u8.ToArray(), keysOnly: true).Count);
    }

    [Fact]
    public void Two_processes_write_their_own_keys_and_the_same_shared_keys_at_once_and_nothing_is_lost()
    {
        var store = Open();
        using var own = ChildProcess.Start(["fill", StorePath, Backend.ToString(), "-", "child", "10000", "8"]);
        using var shared = ChildProcess.Start(["fill", StorePath, Backend.ToString(), "-", "shared", "1000", "9"]);
        var batch = new WriteBatch();
        for (var i = 1; i <= 10_000; i++)
        {
            batch.Put(Key("parent", i), new byte[10]);
            if (i <= 1_000)
            {
                batch.Put(Key("shared", i), new byte[11]);
            }

            if (i % 16 == 0)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        Assert.True(own.WaitForExit(Wait) == 0, own.Output);
        Assert.True(shared.WaitForExit(Wait) == 0, shared.Output);
        Assert.Equal(10_000, StoreAssert.Scan(store, "child/"u8.ToArray(), keysOnly: true).Count);
        Assert.Equal(10_000, StoreAssert.Scan(store, "parent/"u8.ToArray(), keysOnly: true).Count);
        var sharedPairs = StoreAssert.Scan(store, "shared/"u8.ToArray());
        Assert.Equal(1_000, sharedPairs.Count);
        Assert.All(sharedPairs, pair => Assert.True(pair.Value.Length is 9 or 11, $"a shared key holds {pair.Value.Length} bytes"));
        var (code, output) = ChildProcess.Run(["count", StorePath, Backend.ToString(), "-", "parent/"]);
        Assert.True(code == 0 && output.Contains("COUNT 10000", StringComparison.Ordinal), output);
    }

    [Fact]
    public void A_second_process_is_a_client_of_the_process_that_holds_the_store_and_takes_over_when_it_is_killed()
    {
        Open().Dispose();
        using var holder = ChildProcess.Start(["hold-open", StorePath, Backend.ToString(), "-", "60000"]);
        holder.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), Wait);

        var store = Open();
        Assert.Equal(new StoreSharing(StoreRole.Client, holder.Id), store.Sharing);
        store.Put("a"u8, "1"u8);

        holder.KillHard();
        store.Put("b"u8, "2"u8);

        Assert.Equal(StoreRole.Owner, store.Sharing.Role);
        StoreAssert.Holds(store, "a"u8.ToArray(), "1"u8.ToArray());
    }

    [Fact]
    public void The_tool_says_it_is_a_client_of_the_process_that_holds_the_store()
    {
        Open().Dispose();
        using var holder = ChildProcess.Start(["hold-open", StorePath, Backend.ToString(), "-", "60000"]);
        holder.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), Wait);

        var info = DatastoreTool.RunOk(StorePath, "info", "--store", StorePath).Text;

        Assert.Contains($"client of process {holder.Id}, which owns the store", info, StringComparison.Ordinal);
    }

    [Fact]
    public void Kill_9_of_the_owner_while_two_clients_write_loses_no_acknowledged_write()
    {
        Open().Dispose();
        using var owner = ChildProcess.Start(["hold-open", StorePath, Backend.ToString(), "-", "120000"]);
        owner.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), Wait);
        using var first = ChildProcess.Start(["write-through-handovers", StorePath, Backend.ToString(), "-", "first", "3000", "1"]);
        using var second = ChildProcess.Start(["write-through-handovers", StorePath, Backend.ToString(), "-", "second", "3000", "1"]);
        first.WaitForLine(l => l == "ACK 300", Wait);
        second.WaitForLine(l => l == "ACK 300", Wait);

        owner.KillHard();
        var killed = Stopwatch.StartNew();
        var acknowledgedAtKill = Acknowledged(first).Count;
        first.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal) && int.Parse(l[4..], CultureInfo.InvariantCulture) > acknowledgedAtKill + 1, Wait);
        var handOver = killed.Elapsed;

        Assert.True(first.WaitForExit(Wait) == 0, first.Output);
        Assert.True(second.WaitForExit(Wait) == 0, second.Output);
        Assert.Contains("DONE Owner", first.Output + second.Output);
        var store = Open();
        foreach (var (child, tag) in new[] { (first, "first/"u8.ToArray()), (second, "second/"u8.ToArray()) })
        {
            foreach (var i in Acknowledged(child))
            {
                byte[] number = [(byte)(i >> 24), (byte)(i >> 16), (byte)(i >> 8), (byte)i];
                StoreAssert.Holds(store, [.. tag, .. number], number);
            }
        }

        var unknown = (first.Output + second.Output).Split('\n').Count(l => l.StartsWith("UNKNOWN ", StringComparison.Ordinal));
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{Backend}: a client's next acknowledged write came {handOver.TotalMilliseconds:0} ms after the kill; {unknown} write(s) had an unknown outcome"));
    }

    [Fact]
    public void A_client_killed_mid_scan_leaves_no_cursor_in_the_owner()
    {
        var owner = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < 10_000; i++)
        {
            batch.Put([(byte)'k', (byte)(i >> 8), (byte)i], new byte[100]); // more chunks than the owner sends and reads ahead
        }

        owner.Write(batch);
        var server = Assert.IsType<SharedStore>(owner).Server!;
        using var scanner = ChildProcess.Start(["hold-scan", StorePath, Backend.ToString(), "-", "60000"]);
        WaitUntil(() => server.Scans.Open == 1, scanner);

        scanner.KillHard();

        WaitUntil(() => server.Scans.Open == 0 && server.Scans.Ahead == 0 && server.Sessions == 0, scanner);
    }

    private static byte[] Key(string tag, int i) => [.. System.Text.Encoding.UTF8.GetBytes(tag + "/"), (byte)(i >> 24), (byte)(i >> 16), (byte)(i >> 8), (byte)i];

    private static List<int> Acknowledged(ChildProcess child) =>
        [.. child.Output.Split('\n').Where(l => l.StartsWith("ACK ", StringComparison.Ordinal)).Select(l => int.Parse(l[4..], CultureInfo.InvariantCulture))];

    private static void WaitUntil(Func<bool> condition, ChildProcess child)
    {
        var clock = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(clock.Elapsed < Wait, child.Output);
            Thread.Sleep(20);
        }
    }
}
