namespace DataStore.Tests.PowerLoss;

/// <summary>A file or directory of the replayed disk; a rename moves the node, so a directory takes its entries along.</summary>
public abstract class DiskNode;

/// <summary>A directory: its entries now, and the name changes in it that no fsync of it has made durable yet.</summary>
public sealed class DirectoryNode : DiskNode
{
    public Dictionary<string, DiskNode> Entries { get; } = new(StringComparer.Ordinal);

    public List<NameChange> Unsynced { get; } = [];
}

/// <summary>A file: its bytes as of its last fsync, and the changes made since, in order.</summary>
public sealed class FileNode : DiskNode
{
    public FileImage Synced { get; } = new();

    public List<FileChange> Pending { get; } = [];

    /// <summary>Mapped shared and writable: writes through the mapping are invisible to the log.</summary>
    public bool SharedWritableMapping { get; set; }

    public void Sync()
    {
        foreach (var change in Pending)
        {
            change.ApplyTo(Synced, null);
        }

        Pending.Clear();
    }

    /// <summary>Every change applied (no power loss).</summary>
    public FileImage Everything()
    {
        var image = Synced.Clone();
        Pending.ForEach(c => c.ApplyTo(image, null));
        return image;
    }

    /// <summary>
    /// What a power loss leaves of this file: its synced bytes and the writes that were durable when they returned, plus
    /// (<see cref="CrashMode.InOrder"/>) a random prefix of the later changes, the last one torn at a 4 KiB boundary, or
    /// (<see cref="CrashMode.Reordered"/>) a random subset of them, each write torn into random 4 KiB pieces.
    /// </summary>
    public FileImage AfterPowerLoss(CrashMode mode, Random random)
    {
        var image = Synced.Clone();
        var cut = mode == CrashMode.InOrder ? random.Next(Pending.Count + 1) : -1;
        for (var i = 0; i < Pending.Count; i++)
        {
            var change = Pending[i];
            if (mode == CrashMode.FirstPieces && !change.Forced)
            {
                change.ApplyFirstPiece(image);
            }
            else if (change.Forced || i < cut)
            {
                change.ApplyTo(image, null);
            }
            else if (i == cut && change.Kind == LogKind.Write)
            {
                change.ApplyPrefix(image, random);
            }
            else if (mode == CrashMode.Reordered && random.Next(2) == 0)
            {
                change.ApplyTo(image, random);
            }
        }

        return image;
    }
}

/// <summary>Which unsynced changes a simulated power loss keeps.</summary>
public enum CrashMode
{
    /// <summary>None: only what was synced (a disk that lost its whole cache).</summary>
    SyncedOnly,

    /// <summary>A random prefix of each file's unsynced changes, the last write torn (a disk that writes back in order).</summary>
    InOrder,

    /// <summary>A random subset of the unsynced changes, writes torn into random 4 KiB pieces (a disk that reorders).</summary>
    Reordered,

    /// <summary>
    /// Every unsynced change, each write cut to its first 4 KiB-aligned piece, and every name change: one reordering a
    /// disk may do, chosen to tear every page written since the last sync (the power-loss contract does not use it).
    /// </summary>
    FirstPieces,
}

/// <summary>One change to a file's bytes; <see cref="Forced"/> ones (writes through an O_SYNC or O_DSYNC descriptor) were durable when they returned.</summary>
public sealed record FileChange(LogKind Kind, long Offset, long Length, byte[] Data, bool Forced)
{
    /// <summary>Applies the first random number of a write's 4 KiB-aligned pieces (a write cut short).</summary>
    public void ApplyPrefix(FileImage image, Random random)
    {
        var firstPiece = (int)Math.Min(Data.Length, FileImage.PageSize - (Offset % FileImage.PageSize));
        var pieces = Data.Length <= firstPiece ? 1 : 1 + ((Data.Length - firstPiece + FileImage.PageSize - 1) / FileImage.PageSize);
        var keep = random.Next(pieces + 1);
        var length = keep == 0 ? 0 : Math.Min(Data.Length, firstPiece + ((keep - 1) * FileImage.PageSize));
        image.Write(Offset, Data.AsSpan(0, length));
    }

    /// <summary>Applies the change, a write only up to its first 4 KiB boundary.</summary>
    public void ApplyFirstPiece(FileImage image)
    {
        if (Kind == LogKind.Write)
        {
            image.Write(Offset, Data.AsSpan(0, (int)Math.Min(Data.Length, FileImage.PageSize - (Offset % FileImage.PageSize))));
        }
        else
        {
            ApplyTo(image, null);
        }
    }

    /// <summary>Applies the change; with <paramref name="pieces"/>, a write keeps only a random subset of its 4 KiB-aligned pieces (a torn write).</summary>
    public void ApplyTo(FileImage image, Random? pieces)
    {
        switch (Kind)
        {
            case LogKind.Write when pieces is null:
                image.Write(Offset, Data);
                break;
            case LogKind.Write:
                for (var done = 0; done < Data.Length;)
                {
                    var at = Offset + done;
                    var n = (int)Math.Min(FileImage.PageSize - (at % FileImage.PageSize), Data.Length - done);
                    if (pieces.Next(2) == 0)
                    {
                        image.Write(at, Data.AsSpan(done, n));
                    }

                    done += n;
                }

                break;
            case LogKind.Truncate:
                image.SetLength(Offset);
                break;
            case LogKind.Fallocate when Data.Length == 0 && Length > 0:
                image.Zero(Offset, Length);
                break;
            default: // an allocation that extends the file
                if (Offset > image.Length)
                {
                    image.SetLength(Offset);
                }

                break;
        }
    }
}

/// <summary>
/// A change of names, in log order: a link (<see cref="To"/> only), an unlink (<see cref="From"/> only) or a rename
/// (both, atomic). It is <see cref="Required"/> once a directory it touches was fsynced after it (or the file system synced).
/// </summary>
public sealed record NameChange(int Index, DirectoryNode? From, string FromName, DirectoryNode? To, string ToName, DiskNode Node)
{
    public bool Required { get; set; }

    public void ApplyTo(Dictionary<DirectoryNode, Dictionary<string, DiskNode>> names)
    {
        if (From is not null && Of(names, From).TryGetValue(FromName, out var there) && ReferenceEquals(there, Node))
        {
            Of(names, From).Remove(FromName);
        }

        if (To is not null)
        {
            Of(names, To)[ToName] = Node;
        }
    }

    public static Dictionary<string, DiskNode> Of(Dictionary<DirectoryNode, Dictionary<string, DiskNode>> names, DirectoryNode directory)
    {
        if (!names.TryGetValue(directory, out var entries))
        {
            entries = new(StringComparer.Ordinal);
            names.Add(directory, entries);
        }

        return entries;
    }
}
