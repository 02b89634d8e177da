namespace DataStore.ChangeFeed.FileSystem;

/// <summary>The end of the change log: the last segment's whole frames as this process last saw them, read again when the segment changed, and a broken end cut or reported.</summary>
internal sealed partial class ChangeLogFiles
{
    /// <summary>
    /// The last segment's end, from what this process saw last when the segment did not change since, else read again. A
    /// broken end is cut when it is at most <paramref name="repairUpTo"/> bytes (a dead writer's torn frame), else it is damage.
    /// </summary>
    private Tail CurrentTail(int repairUpTo)
    {
        lock (_gate)
        {
            var known = _tail;
            if (known.Segment is not null && known.Length < SegmentBytes && FileLength(known.Segment) is { } length)
            {
                if (length == known.Length)
                {
                    return known;
                }

                if (length > known.Length)
                {
                    return _tail = Scan(known.Segment, known.Length, known.Latest, repairUpTo);
                }
            }

            var segments = Segments();
            if (segments.Count == 0)
            {
                return _tail = default;
            }

            return _tail = Scan(segments[^1].Path, 0, segments[^1].First - 1, repairUpTo);
        }
    }

    private void Remember(Tail tail)
    {
        lock (_gate)
        {
            _tail = tail;
        }
    }

    /// <summary>Walks the frames of <paramref name="segment"/> from <paramref name="offset"/>, where the frame after <paramref name="latest"/> starts.</summary>
    private Tail Scan(string segment, long offset, long latest, int repairUpTo)
    {
        using var file = new FileStream(segment, FileMode.Open, repairUpTo != 0 ? FileAccess.ReadWrite : FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1);
        var bytes = new byte[file.Length - offset];
        file.Position = offset;
        file.ReadExactly(bytes);
        var position = 0;
        while (true)
        {
            var status = ChangeLogFrame.TryRead(bytes, position, out var sequence, out _, out var next);
            if (status == ChangeLogFrame.Status.End)
            {
                return new Tail(segment, offset + position, latest);
            }

            if (status == ChangeLogFrame.Status.Whole && sequence == latest + 1)
            {
                latest = sequence;
                position = next;
                continue;
            }

            if (status == ChangeLogFrame.Status.Broken && (repairUpTo == TornAppend ? ChangeLogFrame.IsTornAppend(bytes.AsSpan(position), latest + 1) : bytes.Length - position <= repairUpTo))
            {
                file.SetLength(offset + position); // a torn last frame: its commit's journal or pending file appends it again, else it never committed
                file.Flush(flushToDisk: true);
                return new Tail(segment, offset + position, latest);
            }

            throw Damaged(segment, status == ChangeLogFrame.Status.Whole
                ? $"commit {sequence} follows commit {latest}"
                : $"bytes at offset {offset + position} are not a whole change-log frame");
        }
    }

    private static long? FileLength(string path)
    {
        var info = new FileInfo(path);
        return info.Exists ? info.Length : null;
    }

    private StoreFormatException Damaged(string segment, string what) =>
        new(StoreFailure.Corrupt, store, StoreBackend.FileSystem, $"the change-log segment '{segment}' is damaged: {what}.");
}
