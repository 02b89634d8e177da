using System.Buffers.Binary;
using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// Rule 13 across an owner hand-over (ADR 0015, ADR 0020), on the backends served by an owner process: a subscriber in
/// one process (this one, a client) keeps receiving the commits of a writer in another while the owner, a third, is
/// killed with kill -9 and the store is taken over, with no commit missing, none twice, and the sequence never going back.
/// </summary>
public abstract class ChangeFeedHandOverContract : StoreContract
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task A_subscriber_sees_every_acknowledged_commit_once_in_order_across_kill_9_of_the_owner()
    {
        Open(o => o.ChangeFeed = true).Dispose();
        using var owner = ChildProcess.Start(["hold-open", StorePath, Backend.ToString(), "-", "120000"]);
        owner.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), Wait);
        var subscriber = Open();
        Assert.Equal(new StoreSharing(StoreRole.Client, owner.Id), subscriber.Sharing);
        var start = subscriber.ChangeSequence();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        stop.CancelAfter(Wait);
        var events = new List<StoreChange>();
        var watching = Task.Run(async () =>
        {
            await foreach (var change in subscriber.Watch("w/"u8, start, stop.Token))
            {
                lock (events)
                {
                    events.Add(change);
                }
            }
        }, TestContext.Current.CancellationToken);

        using var writer = ChildProcess.Start(["write-through-handovers", StorePath, Backend.ToString(), "-", "w", "1200", "1"]);
        writer.WaitForLine(l => l == "ACK 300", Wait);
        owner.KillHard();
        Assert.True(writer.WaitForExit(Wait) == 0, writer.Output);
        var latest = subscriber.ChangeSequence();
        while (!stop.IsCancellationRequested && Received(events) < latest)
        {
            await Task.Delay(20, TestContext.Current.CancellationToken);
        }

        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => watching);

        var lines = writer.Output.Split('\n', StringSplitOptions.TrimEntries);
        var acknowledged = Numbers(lines, "ACK ");
        var unknown = Numbers(lines, "UNKNOWN ");
        var context = $"{Backend}: owner {owner.Id} killed; the writer ended as '{writer.LastLine("DONE ")}'; {unknown.Count} write(s) with an unknown outcome";
        Assert.True(latest > start + 300, context);
        var delivered = new List<int>();
        for (var k = 0; k < events.Count; k++)
        {
            var change = events[k];
            Assert.True(change.Kind == StoreChangeKind.Commit && change.Sequence == start + k + 1,
                $"{context}: event {k} is {change.Kind} {change.Sequence}, expected commit {start + k + 1} (no gap, no repeat, never backwards)");
            delivered.Add(BinaryPrimitives.ReadInt32BigEndian(change.Changes.Single().Key.AsSpan(2)));
        }

        Assert.Equal(latest - start, events.Count);
        Assert.True(delivered.SequenceEqual(delivered.Order()) && delivered.Distinct().Count() == delivered.Count, $"{context}: the writer's puts arrived out of order or twice");
        Assert.Empty(acknowledged.Except(delivered));
        Assert.Empty(delivered.Except(acknowledged).Except(unknown));
    }

    private static long Received(List<StoreChange> events)
    {
        lock (events)
        {
            return events.Count == 0 ? 0 : events[^1].Sequence;
        }
    }

    private static List<int> Numbers(string[] lines, string prefix) =>
        [.. lines.Where(l => l.StartsWith(prefix, StringComparison.Ordinal)).Select(l => int.Parse(l[prefix.Length..], CultureInfo.InvariantCulture))];
}

public sealed class RocksDbChangeFeedHandOverContract : ChangeFeedHandOverContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbChangeFeedHandOverContract : ChangeFeedHandOverContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}
