using System.Runtime.CompilerServices;

namespace DataStore.ChangeFeed;

/// <summary>
/// One subscription: reads the change log from a position, yields the commits that touch [start, end), and waits for the
/// operating system's wake-up when it has caught up. A gap before the next record (pruned past the retention, or a log
/// restarted past a gap after a power loss, <see cref="ChangeLogRestart"/>) or a log
/// behind the position (a restored store), or a position from before the feed was last turned on again (the commits made while it
/// was off have no records), becomes one <see cref="StoreChangeKind.Resynchronize"/> event.
/// </summary>
internal static class ChangeFeedReader
{
    private const int PageSize = 256;

    public static async IAsyncEnumerable<StoreChange> Read(
        IChangeFeedStore store, string directory, StoreBackend backend, byte[] start, byte[] end, long? after, long resumedAfter, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await Task.Yield(); // the first read runs on the thread pool, not inside the caller's MoveNextAsync
        using var wakeup = new ChangeWakeup(directory); // before the first read, so no commit slips between read and wait
        var latest = store.ReadChanges(long.MaxValue, 0).Latest;
        var position = after ?? latest;
        if (position > latest || (after <= resumedAfter && resumedAfter > 0)) // a position from before the feed's time off missed its commits
        {
            yield return Resynchronize(latest);
            position = latest;
        }

        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var page = store.ReadChanges(position, PageSize);
            var records = page.Records;
            var gap = page.Latest < position || (page.Latest > position && records.Count == 0);
            foreach (var entry in records)
            {
                if (entry.Sequence != position + 1) // pruned before it, or a log restarted past a gap (ChangeLogRestart)
                {
                    gap = true;
                    break;
                }

                position = entry.Sequence;
                var changes = Decode(entry, directory, backend, start, end);
                if (changes.Count > 0)
                {
                    yield return new StoreChange(StoreChangeKind.Commit, entry.Sequence, changes);
                }
            }

            if (gap)
            {
                yield return Resynchronize(page.Latest);
                position = page.Latest;
                continue;
            }

            if (position >= page.Latest) // caught up (a page may hold fewer records than asked for, as an owner's answer does)
            {
                await wakeup.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
        }
    }

    private static StoreChange Resynchronize(long sequence) => new(StoreChangeKind.Resynchronize, sequence, []);

    private static List<KeyChange> Decode(ChangeLogEntry entry, string directory, StoreBackend backend, byte[] start, byte[] end)
    {
        try
        {
            return ChangeRecord.Read(entry.Record, start, end);
        }
        catch (FormatException e)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, directory, backend,
                $"the change-log record of commit {entry.Sequence} is damaged ({e.Message}).", e);
        }
    }
}
