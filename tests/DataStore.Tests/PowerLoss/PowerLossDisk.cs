namespace DataStore.Tests.PowerLoss;

/// <summary>
/// Replays the shim's log into a model of what a disk holds: each file's bytes as of its last fsync or fdatasync plus
/// the changes since, each directory's names plus the name changes no fsync of it made durable yet. At any point it can
/// write out what a power loss would keep: only what was synced, or that plus a random subset of the rest (the
/// reorderings a disk may do).
/// </summary>
/// <remarks>
/// The model is deliberately pessimistic about names: a created or renamed name survives only once a directory it
/// touches is fsynced (or the file system synced), whatever a file system may do sooner; and an fsync of a file does
/// not make its name durable. It cannot see writes through a shared writable mapping (only the mapping is recorded),
/// the device's own cache (an fsync is taken as reaching the medium), or O_DIRECT semantics (such writes are treated
/// as ordinary writes, durable only once synced).
/// </remarks>
public sealed class PowerLossDisk
{
    private const long SyncWrites = 0x1000; // O_DSYNC (O_SYNC includes it)
    private const long Creates = 0x40;      // O_CREAT
    private const long Truncates = 0x200;   // O_TRUNC
    private readonly DirectoryNode _root = new();
    private readonly Dictionary<int, (DiskNode Node, bool SyncWrites)> _descriptors = [];
    private readonly List<NameChange> _names = [];
    private readonly List<FileNode> _files = [];

    /// <summary>Records the harness cannot replay (a copy the kernel did, a rename across the root, ...).</summary>
    public List<string> Unsupported { get; } = [];

    /// <summary>Paths of files mapped shared and writable: what was written through the mapping is not in the log.</summary>
    public SortedSet<string> MappedFiles { get; } = new(StringComparer.Ordinal);

    public void Apply(LogRecord record)
    {
        switch (record.Kind)
        {
            case LogKind.Open:
                Open(record);
                break;
            case LogKind.Close:
                _descriptors.Remove(record.Fd);
                break;
            case LogKind.Dup:
                _descriptors[record.Fd] = _descriptors[(int)record.A];
                break;
            case LogKind.Write:
                File(record).Pending.Add(new FileChange(LogKind.Write, record.A, record.B, record.Data, _descriptors[record.Fd].SyncWrites));
                break;
            case LogKind.Truncate:
                File(record).Pending.Add(new FileChange(LogKind.Truncate, record.A, 0, [], false));
                break;
            case LogKind.Fallocate:
                Allocate(record);
                break;
            case LogKind.Fsync or LogKind.Fdatasync:
                Sync(record);
                break;
            case LogKind.Syncfs or LogKind.Sync:
                SyncAll();
                break;
            case LogKind.Rename or LogKind.Link:
                Rename(record);
                break;
            case LogKind.Unlink or LogKind.Rmdir:
                var (parent, name, node) = Resolve(record.Path);
                parent!.Entries.Remove(name);
                Change(new NameChange(record.Index, parent, name, null, "", node ?? throw Unknown(record)));
                break;
            case LogKind.Mkdir:
                var (into, dirName, _) = Resolve(record.Path);
                var directory = new DirectoryNode();
                into!.Entries[dirName] = directory;
                Change(new NameChange(record.Index, null, "", into, dirName, directory));
                break;
            case LogKind.Mmap when (record.A & 2) != 0 && (record.B & 1) != 0: // PROT_WRITE, MAP_SHARED
                File(record).SharedWritableMapping = true;
                MappedFiles.Add(PathOf(_descriptors[record.Fd].Node));
                break;
            case LogKind.Unsupported:
                Unsupported.Add(record.ToString());
                break;
            default: // Mark, SyncRange (no durability promise), Mmap read-only or private, Msync
                break;
        }
    }

    /// <summary>
    /// Writes what a power loss now would leave into <paramref name="target"/>: synced data under durable names, plus,
    /// unless <paramref name="mode"/> is <see cref="CrashMode.SyncedOnly"/>, a random later cut of the unsynced name
    /// changes and the unsynced file changes <see cref="FileNode.AfterPowerLoss"/> keeps.
    /// </summary>
    public void SaveCrashState(string target, CrashMode mode, Random random)
    {
        var optional = _names.Where(n => !n.Required).Select(n => n.Index).ToList();
        var cut = mode switch
        {
            CrashMode.FirstPieces => int.MaxValue,
            CrashMode.SyncedOnly => -1,
            _ => optional.Count == 0 ? -1 : optional[random.Next(optional.Count)] + random.Next(2),
        };
        var names = new Dictionary<DirectoryNode, Dictionary<string, DiskNode>>();
        foreach (var change in _names.Where(n => n.Required || n.Index < cut))
        {
            change.ApplyTo(names);
        }

        Save(target, _root, d => NameChange.Of(names, d), f => f.AfterPowerLoss(mode, random), []);
    }

    /// <summary>Writes everything the log says happened (no power loss): it must equal the real directory.</summary>
    public void SaveEverything(string target) => Save(target, _root, d => d.Entries, f => f.Everything(), []);

    private static void Save(string target, DirectoryNode directory, Func<DirectoryNode, Dictionary<string, DiskNode>> entries, Func<FileNode, FileImage> content, Dictionary<DiskNode, string> done)
    {
        System.IO.Directory.CreateDirectory(target);
        foreach (var (name, node) in entries(directory).OrderBy(e => e.Key, StringComparer.Ordinal))
        {
            var path = Path.Combine(target, name);
            if (done.TryGetValue(node, out var first) && node is FileNode)
            {
                // A second name of the same file (a hard link: a FileSystem split's prepared children) is one too.
                // Before, it was skipped, so a store cut after a publish lost every key its children held.
                HardLink.Create(first, path);
                continue;
            }

            if (first is not null)
            {
                continue; // a directory under two names (no file system allows it): written once
            }

            done[node] = path;
            if (node is DirectoryNode child)
            {
                Save(path, child, entries, content, done);
            }
            else
            {
                content((FileNode)node).SaveTo(path);
            }
        }
    }

    private void Open(LogRecord record)
    {
        var (parent, name, node) = Resolve(record.Path);
        if (node is null)
        {
            if ((record.A & Creates) == 0 || parent is null)
            {
                throw Unknown(record);
            }

            var file = new FileNode();
            _files.Add(file);
            node = file;
            parent.Entries[name] = node;
            Change(new NameChange(record.Index, null, "", parent, name, node));
        }
        else if (node is FileNode existing && (record.A & Truncates) != 0)
        {
            existing.Pending.Add(new FileChange(LogKind.Truncate, 0, 0, [], false));
        }

        if ((record.B != 0) != (node is DirectoryNode))
        {
            throw new InvalidDataException($"the log opened '{record.Path}' as a {(record.B != 0 ? "directory" : "file")}, the replay has the other: {record}");
        }

        _descriptors[record.Fd] = (node, (record.A & SyncWrites) != 0);
    }

    private void Allocate(LogRecord record)
    {
        const long KeepSize = 1, PunchHole = 2;
        var (mode, offset, length) = (record.A, record.B, record.C);
        if (mode == 0)
        {
            File(record).Pending.Add(new FileChange(LogKind.Fallocate, offset + length, 0, [], false));
        }
        else if (mode == (KeepSize | PunchHole))
        {
            File(record).Pending.Add(new FileChange(LogKind.Fallocate, offset, length, [], false));
        }
        else if (mode != KeepSize)
        {
            Unsupported.Add($"fallocate mode {mode}: {record}");
        }
    }

    private void Sync(LogRecord record)
    {
        switch (_descriptors[record.Fd].Node)
        {
            case FileNode file:
                file.Sync();
                break;
            case DirectoryNode directory:
                directory.Unsynced.ForEach(c => c.Required = true);
                directory.Unsynced.Clear();
                break;
        }
    }

    private void SyncAll()
    {
        _files.ForEach(f => f.Sync());
        _names.ForEach(c => c.Required = true);
    }

    private void Rename(LogRecord record)
    {
        var (from, fromName, node) = Resolve(record.Path);
        var (to, toName, _) = Resolve(record.Path2);
        if (node is null || from is null || to is null)
        {
            throw Unknown(record);
        }

        if (record.Kind == LogKind.Rename)
        {
            from.Entries.Remove(fromName);
        }

        to.Entries[toName] = node;
        Change(new NameChange(record.Index, record.Kind == LogKind.Rename ? from : null, fromName, to, toName, node));
    }

    private void Change(NameChange change)
    {
        _names.Add(change);
        change.From?.Unsynced.Add(change);
        if (change.To is not null && change.To != change.From)
        {
            change.To.Unsynced.Add(change);
        }
    }

    private FileNode File(LogRecord record) =>
        _descriptors.TryGetValue(record.Fd, out var open) && open.Node is FileNode file ? file : throw Unknown(record);

    /// <summary>The parent directory, last name and node (null when absent) of a path relative to the root.</summary>
    private (DirectoryNode? Parent, string Name, DiskNode? Node) Resolve(string path)
    {
        if (path.Length == 0)
        {
            return (null, "", _root);
        }

        var parts = path.Split('/');
        var directory = _root;
        foreach (var part in parts[..^1])
        {
            if (!directory.Entries.TryGetValue(part, out var next) || next is not DirectoryNode child)
            {
                return (null, parts[^1], null);
            }

            directory = child;
        }

        return (directory, parts[^1], directory.Entries.GetValueOrDefault(parts[^1]));
    }

    private string PathOf(DiskNode node) => Find(_root, node, "") ?? "?";

    private static string? Find(DirectoryNode directory, DiskNode node, string prefix)
    {
        foreach (var (name, child) in directory.Entries)
        {
            var path = prefix + name;
            if (ReferenceEquals(child, node))
            {
                return path;
            }

            if (child is DirectoryNode sub && Find(sub, node, path + "/") is { } found)
            {
                return found;
            }
        }

        return null;
    }

    private static InvalidDataException Unknown(LogRecord record) =>
        new($"the log touches a path or descriptor the replay does not know (a call the shim missed?): {record}");
}
