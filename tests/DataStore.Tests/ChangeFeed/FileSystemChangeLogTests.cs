using DataStore.ChangeFeed.FileSystem;
using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// The FileSystem change log's files (ADR 0020): a journal left by a killed writer gets its record exactly once, a torn last
/// frame is cut, damage elsewhere is an error naming the segment, and pruning drops whole segments but never the sequence.
/// </summary>
public sealed class FileSystemChangeLogTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string Journal => Path.Combine(StorePath, BatchJournal.FileName);

    private string[] Segments => Directory.GetFiles(Path.Combine(StorePath, ChangeLogFiles.Folder), "0*").Order(StringComparer.Ordinal).ToArray(); // not the Relaxed marker, "unsynced"

    [Fact]
    public async Task A_journal_a_killed_writer_left_after_applying_gets_its_record_once_at_the_next_open()
    {
        using (var store = Open())
        {
            store.Put("a/1"u8, [1]);
        }

        BatchJournal.Write(new WriteBatch().Put("a/2"u8, [2]), Path.Combine(StorePath, "tmp", "1-1.tmp"), Journal, sequence: 2);

        using (var store = Open())
        {
            Assert.Equal(2, store.ChangeSequence());
            Assert.Equal([2], store.Get("a/2"u8));
            var change = await First(store, after: 1);
            Assert.Equal((2L, KeyChangeKind.Put, "a/2"), (change.Sequence, change.Changes.Single().Kind, System.Text.Encoding.UTF8.GetString(change.Changes.Single().Key)));
        }

        // Killed after the record's append, before the journal's removal: replayed, but not logged twice.
        BatchJournal.Write(new WriteBatch().Put("a/2"u8, [2]), Path.Combine(StorePath, "tmp", "1-1.tmp"), Journal, sequence: 2);
        using (var store = Open())
        {
            Assert.Equal(2, store.ChangeSequence());
            store.Put("a/3"u8, [3]);
            Assert.Equal(3, store.ChangeSequence());
        }
    }

    [Fact]
    public void A_torn_last_frame_is_cut_and_its_commit_logged_whole()
    {
        using (var store = Open())
        {
            store.Put("a/1"u8, [1]);
        }

        var frame = ChangeLogFrame.Encode(2, [1, 3, (byte)'a', (byte)'/', (byte)'2']);
        using (var segment = new FileStream(Segments[^1], FileMode.Append))
        {
            segment.Write(frame.AsSpan(0, frame.Length - 3)); // the writer died inside its append
        }

        BatchJournal.Write(new WriteBatch().Put("a/2"u8, [2]), Path.Combine(StorePath, "tmp", "1-1.tmp"), Journal, sequence: 2);

        using (var store = Open())
        {
            Assert.Equal(2, store.ChangeSequence());
            store.Put("a/3"u8, [3]);
            Assert.Equal(3, store.ChangeSequence());
        }
    }

    [Fact]
    public async Task Damage_inside_the_log_is_a_StoreFormatException_naming_the_segment_and_verify_reports_it()
    {
        using (var store = Open())
        {
            store.Put("a/1"u8, [1]);
            store.Put("a/2"u8, [2]);
        }

        var segment = Segments[^1];
        var bytes = File.ReadAllBytes(segment);
        bytes[14] ^= 0x55; // inside the first frame's record
        File.WriteAllBytes(segment, bytes);

        using var damaged = Open();
        var error = Assert.Throws<StoreFormatException>(() => damaged.ChangeSequence());
        Assert.Contains(segment, error.Message, StringComparison.Ordinal);
        Assert.Equal([2], damaged.Get("a/2"u8)); // the pairs stay readable
        var report = await damaged.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.False(report.IsHealthy);
        Assert.Contains(report.Problems, p => p.Contains(segment, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Pruning_deletes_whole_segments_below_the_retention_and_keeps_the_sequence()
    {
        var key = new byte[200_000]; // one record of 200 KB: a segment (1 MiB) holds six
        using (var store = Open(retention: 2))
        {
            for (var i = 1; i <= 20; i++)
            {
                key[^1] = (byte)i;
                store.Put(key, [(byte)i]);
            }
        }

        Assert.True(Segments.Length <= 2, $"after pruning to 2 commits, {Segments.Length} segments are left");
        Assert.NotEqual("00000000000000000001", Path.GetFileName(Segments[0])); // 20 records of 200 KB filled several, the first went
        using var reopened = Open(retention: 2);
        Assert.Equal(20, reopened.ChangeSequence());
        var first = await First(reopened, after: 5);
        Assert.Equal((StoreChangeKind.Resynchronize, 20L), (first.Kind, first.Sequence));
    }

    /// <summary>
    /// A writer killed with kill -9 after each step of a logged Put (1 key file renamed to its pending name, 2 tmp/ synced,
    /// 3 record appended, 4 renamed into place): the next open completes the commit, so every acknowledged Put and the
    /// killed one are there, each with exactly one event in order, and no pending file is left.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public async Task A_Put_killed_at_each_step_is_completed_with_exactly_one_record(int step)
    {
        var seed = Random.Shared.Next();
        var count = 1 + new Random(seed).Next(8);
        var context = $"step {step}, seed {seed}, {count} acknowledged Puts";
        using (Open())
        {
            // Created with the feed on; the child opens it as it is.
        }

        using (var writer = ChildProcess.Start(["feed-put-stop", StorePath, nameof(StoreBackend.FileSystem), "-", step.ToString(System.Globalization.CultureInfo.InvariantCulture), count.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            writer.WaitForLine(line => line == "STOPPED", TimeSpan.FromSeconds(60));
            writer.KillHard();
        }

        using var store = Open();
        Assert.True(count + 1 == store.ChangeSequence(), $"{context}: the log ends at {store.ChangeSequence()}");
        var events = new List<StoreChange>();
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken))
        {
            timeout.CancelAfter(TimeSpan.FromSeconds(30));
            await foreach (var change in store.Watch([], 0, timeout.Token))
            {
                events.Add(change);
                if (change.Sequence == count + 1)
                {
                    break;
                }
            }
        }

        for (var i = 1; i <= count + 1; i++)
        {
            var change = events[i - 1];
            var key = $"p/{i}";
            Assert.True((i, KeyChangeKind.Put, key) == (change.Sequence, change.Changes.Single().Kind, System.Text.Encoding.UTF8.GetString(change.Changes.Single().Key)), $"{context}: event {i}");
            Assert.True(store.Get(System.Text.Encoding.UTF8.GetBytes(key)) is { } value && BitConverter.ToInt32(value) == i, $"{context}: {key} is missing or wrong");
        }

        Assert.Empty(Directory.GetFiles(Path.Combine(StorePath, "tmp")));
    }

    /// <summary>
    /// A writer killed with kill -9 at each step of a logged delete (1 sequence taken, 2 record appended, 3 first key removed,
    /// 4 every key removed, before the directories' syncs), after a seeded number of acknowledged puts and deletes: the next
    /// open undoes it (step 1: no record, the keys stay) or completes it (steps 2-4: one record, the keys gone). Every
    /// acknowledged delete has exactly one event, in order, and replaying every event gives exactly the store's keys.
    /// </summary>
    [Theory]
    [InlineData(1, "delete")]
    [InlineData(2, "delete")]
    [InlineData(3, "delete")]
    [InlineData(2, "prefix")]
    [InlineData(2, "range")]
    [InlineData(3, "range")]
    public async Task A_delete_killed_at_each_step_is_undone_or_completed_with_exactly_one_record(int step, string kind)
    {
        var seed = Random.Shared.Next();
        var count = 2 + new Random(seed).Next(6);
        var context = $"{kind} stopped at step {step}, seed {seed}, {count} puts and {count - 1} acknowledged deletes";
        using (Open())
        {
            // Created with the feed on; the child opens it as it is.
        }

        var text = System.Globalization.CultureInfo.InvariantCulture;
        // A Relaxed prefix or range delete goes through the batch journal (its unlinks are not synced), so those run Durable.
        var durability = kind == "delete" ? "-" : nameof(Durability.Durable);
        using (var writer = ChildProcess.Start(["feed-delete-stop", StorePath, nameof(StoreBackend.FileSystem), durability, step.ToString(text), count.ToString(text), kind]))
        {
            writer.WaitForLine(line => line == "STOPPED", TimeSpan.FromSeconds(60));
            writer.KillHard();
        }

        using var store = Open();
        var latest = count + 4 + (count - 1) + (step >= 2 ? 1 : 0);
        Assert.True(latest == store.ChangeSequence(), $"{context}: the log ends at {store.ChangeSequence()}, not {latest}");
        var model = new SortedSet<string>(StringComparer.Ordinal);
        var deletes = new List<string>();
        await foreach (var change in Watch(store, latest))
        {
            foreach (var key in change.Changes)
            {
                var name = System.Text.Encoding.UTF8.GetString(key.Key);
                _ = key.Kind switch
                {
                    KeyChangeKind.Put => model.Add(name),
                    KeyChangeKind.Delete => model.Remove(name),
                    _ => model.RemoveWhere(k => string.CompareOrdinal(k, name) >= 0 && (key.End.Length == 0 || string.CompareOrdinal(k, System.Text.Encoding.UTF8.GetString(key.End)) < 0)) >= 0,
                };
                deletes.AddRange(key.Kind == KeyChangeKind.Put ? [] : [name]);
            }
        }

        var stored = StoreAssert.Scan(store, [], keysOnly: true).Select(p => System.Text.Encoding.UTF8.GetString(p.Key)).ToList();
        Assert.True(model.SequenceEqual(stored), $"{context}: the events give [{string.Join(", ", model)}], the store holds [{string.Join(", ", stored)}]");
        var expected = Enumerable.Range(1, count - 1).Select(i => $"p/{i:D4}").Concat(step == 1 ? [] : [kind == "range" ? "q/" : $"p/{count:D4}"]);
        Assert.True(expected.SequenceEqual(deletes), $"{context}: the deletes delivered are [{string.Join(", ", deletes)}]");
        Assert.Equal(step == 1, stored.Contains(kind == "range" ? "q/0001" : $"p/{count:D4}"));
    }

    public void Dispose() => _directory.Dispose();

    private static async IAsyncEnumerable<StoreChange> Watch(IKeyValueStore store, long through)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(30));
        await foreach (var change in store.Watch([], 0, timeout.Token))
        {
            yield return change;
            if (change.Sequence == through)
            {
                yield break;
            }
        }
    }

    private IKeyValueStore Open(int retention = 1000) => KeyValueStore.Open(new DataStoreOptions
    {
        Path = StorePath,
        Backend = StoreBackend.FileSystem,
        ChangeFeed = true,
        ChangeFeedRetention = retention,
        Timeout = TimeSpan.FromSeconds(10),
    });

    private static async Task<StoreChange> First(IKeyValueStore store, long after)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(30));
        await foreach (var change in store.Watch([], after, timeout.Token))
        {
            return change;
        }

        throw new InvalidOperationException("the watch ended without an event");
    }
}
