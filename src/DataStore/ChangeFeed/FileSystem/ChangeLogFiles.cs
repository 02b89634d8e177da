using System.Globalization;
using DataStore.Platform;

namespace DataStore.ChangeFeed.FileSystem;

/// <summary>
/// The FileSystem change log on disk (ADR 0020): segment files <c>changelog/&lt;first sequence, 20 digits&gt;</c> in the store
/// directory, append-only <see cref="ChangeLogFrame"/>s with sequences rising by one; a new segment starts once the last
/// one passes <see cref="SegmentBytes"/>, created whole (synced, renamed, directory synced). Every method is called holding
/// the store's lock: the exclusive one to append, recover or prune, the shared one (no change in progress) to read, so a
/// reader never meets a frame being written.
/// </summary>
internal sealed partial class ChangeLogFiles(string store)
{
    /// <summary>The folder of the segments, in the store directory (not in the signal's folder, so watchers stay quiet).</summary>
    public const string Folder = "changelog";

    /// <summary>A segment past this size gets no more frames: the next commit starts a new one.</summary>
    public const int SegmentBytes = 1 << 20;

    private const int NameLength = 20;

    /// <summary>For <see cref="CurrentTail"/>: cut a broken end that is one interrupted append (<see cref="ChangeLogFrame.IsTornAppend"/>).</summary>
    private const int TornAppend = -1;

    private readonly string _folder = Path.Combine(store, Folder);
    private readonly Lock _gate = new();
    private Tail _tail;

    /// <summary>The last segment as this process last saw it: its path, the length of its whole frames and the last frame's sequence.</summary>
    private readonly record struct Tail(string? Segment, long Length, long Latest);

    /// <summary>The latest commit's sequence, 0 before the first.</summary>
    /// <exception cref="StoreFormatException">The last segment ends in bytes that are not a whole frame.</exception>
    public long Latest() => CurrentTail(repairUpTo: 0).Latest;

    /// <summary>
    /// The latest commit's sequence and record (0 and null before the first). With <paramref name="cutTornAppend"/> (a writer
    /// died in its change, or the machine restarted since the store was last open) a broken end that is one interrupted
    /// append of the next commit is cut first; any other broken end is damage.
    /// </summary>
    /// <exception cref="StoreFormatException">The last segment ends in bytes that are not a whole frame.</exception>
    public (long Sequence, byte[]? Record) Last(bool cutTornAppend)
    {
        var tail = CurrentTail(cutTornAppend ? TornAppend : 0);
        if (tail.Segment is null)
        {
            return (tail.Latest, null);
        }

        var bytes = File.ReadAllBytes(tail.Segment).AsSpan(0, (int)tail.Length);
        byte[]? last = null;
        var offset = 0;
        while (ChangeLogFrame.TryRead(bytes, offset, out var sequence, out var record, out offset) == ChangeLogFrame.Status.Whole)
        {
            last = sequence == tail.Latest ? record.ToArray() : last;
        }

        return (tail.Latest, last);
    }

    /// <summary>
    /// Appends commit <paramref name="sequence"/> (the latest plus one), synced to disk before it returns unless
    /// <paramref name="sync"/> is false (the caller then syncs the whole file system before the commit ends). Call after
    /// <see cref="Latest"/> or <see cref="Recover"/> under the same hold of the exclusive lock: the end they found is
    /// trusted, so an append costs no second <c>stat</c> of the segment.
    /// </summary>
    public void Append(long sequence, ReadOnlySpan<byte> record, bool sync = true)
    {
        Tail tail;
        lock (_gate)
        {
            tail = _tail;
        }

        if (tail.Latest != sequence - 1)
        {
            tail = CurrentTail(repairUpTo: 0);
        }

        if (sequence != tail.Latest + 1)
        {
            throw new DataStoreException(StoreFailure.Engine, store, StoreBackend.FileSystem,
                $"commit {sequence} was to follow commit {sequence - 1} in the change log '{_folder}', which ends at {tail.Latest}.");
        }

        var frame = ChangeLogFrame.Encode(sequence, record);
        if (tail.Segment is null || tail.Length >= SegmentBytes)
        {
            EnsureFolder();
            var segment = Path.Combine(_folder, Name(sequence));
            SyncedFile.Replace(segment, frame);
            Remember(new Tail(segment, frame.Length, sequence));
            return;
        }

        SegmentWrite.Append(tail.Segment, tail.Length, frame, sync);
        Remember(tail with { Length = tail.Length + frame.Length, Latest = sequence });
    }

    /// <summary>
    /// After a dead writer's journal or pending Put of commit <paramref name="sequence"/> was replayed: cuts the torn frame it may have left,
    /// then appends the commit's record unless the log already ends with it.
    /// </summary>
    /// <param name="sequence">The commit's sequence.</param>
    /// <param name="record">The commit's record.</param>
    /// <param name="loggedIfPast">
    /// A pending Put's: a log already past the commit holds its record (a power loss kept the pending name, not its rename
    /// into place, while later commits reached the disk), so nothing is appended.
    /// </param>
    /// <exception cref="StoreFormatException">The log does not end just before or at the commit, or more than a torn frame is broken.</exception>
    public void Recover(long sequence, ReadOnlySpan<byte> record, bool loggedIfPast = false)
    {
        if (Directory.Exists(_folder))
        {
            foreach (var staging in Directory.EnumerateFiles(_folder, "*.tmp"))
            {
                File.Delete(staging);
            }
        }

        var latest = CurrentTail(repairUpTo: ChangeLogFrame.Overhead + record.Length).Latest;
        if (latest == sequence || (loggedIfPast && latest > sequence))
        {
            return;
        }

        if (latest != sequence - 1)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, store, StoreBackend.FileSystem,
                $"the unfinished commit {sequence} (its journal or pending key file) does not follow the change log '{_folder}', which ends at commit {latest}.");
        }

        Append(sequence, record);
    }

    /// <summary>Up to <paramref name="max"/> records after <paramref name="after"/> among the latest <paramref name="retention"/>, and the latest sequence.</summary>
    /// <exception cref="StoreFormatException">A segment holds bytes that are not a whole frame, or frames out of order.</exception>
    public ChangeLogPage Read(long after, int max, int retention)
    {
        var latest = Latest();
        var from = Math.Max(after, latest - retention) + 1; // records at or below latest - retention are gone for subscribers
        var records = new List<ChangeLogEntry>();
        if (max <= 0 || from > latest)
        {
            return new ChangeLogPage(records, latest);
        }

        var segments = Segments();
        var first = Math.Max(0, segments.FindLastIndex(s => s.First <= from));
        for (var i = first; i < segments.Count && records.Count < max; i++)
        {
            var bytes = File.ReadAllBytes(segments[i].Path);
            var offset = 0;
            while (records.Count < max)
            {
                var status = ChangeLogFrame.TryRead(bytes, offset, out var sequence, out var record, out offset);
                if (status == ChangeLogFrame.Status.End)
                {
                    break;
                }

                if (status == ChangeLogFrame.Status.Broken)
                {
                    throw Damaged(segments[i].Path, $"bytes at offset {offset} are not a whole change-log frame");
                }

                if (sequence >= from && sequence <= latest)
                {
                    records.Add(new ChangeLogEntry(sequence, record.ToArray()));
                }
            }
        }

        return new ChangeLogPage(records, latest);
    }

    /// <summary>Deletes every segment whose records are all at or below the latest minus <paramref name="retain"/>; the last segment always stays.</summary>
    public void Prune(int retain)
    {
        var segments = Segments();
        if (segments.Count < 2)
        {
            return;
        }

        var floor = Latest() - Math.Max(retain, 1);
        for (var i = 0; i + 1 < segments.Count && segments[i + 1].First - 1 <= floor; i++)
        {
            File.Delete(segments[i].Path);
        }
    }

    /// <summary>Writes <paramref name="records"/> as the change log of the new store at <paramref name="destination"/> (a backup; its copier syncs it).</summary>
    public static void WriteCopy(string destination, IReadOnlyList<ChangeLogEntry> records)
    {
        var folder = Path.Combine(destination, Folder);
        Directory.CreateDirectory(folder);
        FileStream? segment = null;
        try
        {
            foreach (var entry in records)
            {
                if (segment is null || segment.Length >= SegmentBytes)
                {
                    segment?.Dispose();
                    segment = new FileStream(Path.Combine(folder, Name(entry.Sequence)), FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16);
                }

                segment.Write(ChangeLogFrame.Encode(entry.Sequence, entry.Record));
            }
        }
        finally
        {
            segment?.Dispose();
        }
    }

    /// <summary>Creates the log's folder, durably, when it is not there yet.</summary>
    private void EnsureFolder()
    {
        if (!Directory.Exists(_folder))
        {
            Directory.CreateDirectory(_folder);
            DirectorySync.Sync(store);
        }
    }

    private static string Name(long sequence) => sequence.ToString("D20", CultureInfo.InvariantCulture);

    /// <summary>The segments, ordered by their first sequence (files of other names, such as staging files, are not segments).</summary>
    private List<(long First, string Path)> Segments()
    {
        var segments = new List<(long First, string Path)>();
        if (!Directory.Exists(_folder))
        {
            return segments;
        }

        foreach (var path in Directory.EnumerateFiles(_folder))
        {
            var name = Path.GetFileName(path);
            if (name.Length == NameLength && long.TryParse(name, NumberStyles.None, CultureInfo.InvariantCulture, out var first))
            {
                segments.Add((first, path));
            }
        }

        segments.Sort((a, b) => a.First.CompareTo(b.First));
        return segments;
    }
}
