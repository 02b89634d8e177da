using DataStore.Batches;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// Every change to the key tree: puts, deletes, batches through the journal, directory splits and recovery.
/// Call only holding the store's exclusive lock, except <see cref="WriteTemporary"/>.
/// </summary>
internal sealed partial class TreeWriter(string root, Layout layout, SharedState state, int maxEntries)
{
    /// <summary>Batches with at most this many puts flush each file; larger ones sync the whole file system once.</summary>
    private const int PerFileSyncLimit = 32;

    private readonly string _temporary = Path.Combine(root, "tmp");
    private readonly string _journal = Path.Combine(root, BatchJournal.FileName);
    private readonly HashSet<string> _newParents = [];
    private readonly PreImages _preImages = new(root, state);
    private LeafSplitter? _splitterInstance;
    private byte[]? _preparationWanted;

    private LeafSplitter Splitter => _splitterInstance ??= new LeafSplitter(root, layout, state, NewTemporary, EnsureDirectory, Unsynced);
    private long _nextTemporary;
    private ChangeFeed.FileSystem.ChangeLogFiles? _log;
    private readonly ChangeFeed.ChangeRecord _record = new();

    /// <summary>The store's change log (ADR 0020), also for recovering a journal that carries a sequence.</summary>
    public ChangeFeed.FileSystem.ChangeLogFiles Log => _log ??= new ChangeFeed.FileSystem.ChangeLogFiles(root);

    /// <summary>True when the store's change feed is on: every batch gets the next sequence and its record in <see cref="Log"/>.</summary>
    public bool LogCommits { get; set; }

    /// <summary>A Relaxed store's directories changed by single Puts and Deletes since their last sync; null when Durable.</summary>
    public UnsyncedDirectories? Unsynced { get; init; }

    /// <summary>Test hook: called before each operation of a batch or a journal replay on this thread, to inject a failure.</summary>
    [ThreadStatic]
    internal static Action? BeforeOperationForTests;

    /// <summary>Removes one key; returns its directory when it was there, else null.</summary>
    public string? Delete(ReadOnlySpan<byte> key)
    {
        var node = layout.Resolve(key, out var depth);
        var rest = key[depth..];
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength];
        if (!KeyNames.IsHashed(rest))
        {
            var length = KeyNames.Write(rest, 0, name);
            if (_preImages.Active)
            {
                _preImages.Keep(node.FilePathString(name[..length]), key);
            }

            if (!Unlink(node, name[..length]))
            {
                return null;
            }

            if (PosixLinks.Available && state.EstimatedCount(node.Prefix) >= PreparedSplitLimits.StartAt(maxEntries))
            {
                UnlinkPreparedChild(node, rest);
            }

            return node.Path;
        }

        if (KeyLookup.FindIn(node, key, rest, KeyLookup.Mode.KeyOnly, out _, out var slot) != ReadStatus.Found)
        {
            return null;
        }

        // Keep the collision chain gapless: the last file of the chain takes the removed key's slot.
        var last = slot;
        while (File.Exists(node.FilePathString(name[..KeyNames.Write(rest, last + 1, name)])))
        {
            last++;
        }

        var removed = node.FilePathString(name[..KeyNames.Write(rest, slot, name)]);
        _preImages.Keep(removed, key);
        if (last == slot)
        {
            File.Delete(removed);
            return node.Path;
        }

        state.BeginChange();
        File.Move(node.FilePathString(name[..KeyNames.Write(rest, last, name)]), removed, overwrite: true);
        return node.Path;
    }

    /// <summary>Removes every key in [start, end); returns how many and adds their directories to <paramref name="touched"/>.</summary>
    public long DeleteRange(byte[] start, byte[] end, HashSet<string> touched)
    {
        var keys = new List<byte[]>();
        TreeWalker.Walk(layout.Root, start, end, keysOnly: true, (key, _) => keys.Add(key.ToArray()));
        for (var i = 0; i < keys.Count; i++)
        {
            if (Delete(keys[i]) is { } directory)
            {
                touched.Add(directory);
            }

            if (i == 0)
            {
                LoggedDeleteStepForTests?.Invoke(3);
            }
        }

        return keys.Count;
    }

    /// <summary>True while a split's moves wait for a file system sync (its record, <see cref="LeafSplitter.PendingFile"/>, is there), or a split is prepared (<see cref="PreparedSplitRecord"/>).</summary>
    public bool SplitUnsynced => MovesUnsynced || PreparedSplitRecord.Exists(root);

    /// <summary>True while a split made the old way waits for a file system sync: a directory sync could make some of its moves durable without the others.</summary>
    public bool MovesUnsynced => File.Exists(Path.Combine(root, LeafSplitter.PendingFile));

    /// <summary>
    /// The directory of the leaf whose split is being prepared (<see cref="PreparedSplitRecord"/>), or null. A durable
    /// write then syncs it with its own directories: once its marker is published the write may sit in a child, which
    /// recovery removes unless the marker is on disk. Call holding the lock.
    /// </summary>
    public string? PreparedLeaf() =>
        PreparedSplitRecord.Exists(root) && PreparedSplitRecord.Read(root) is { } record ? layout.NodeOf(record.Prefix).Path : null;

    /// <summary>Drops the record of a finished split once a file system sync that began after its moves has completed; call holding the lock.</summary>
    public void DropSyncedSplit() => LeafSplitter.DropRecords(root);

    /// <summary>Starts a write: from here on it keeps the pre-images open streaming scans need (<see cref="PreImages"/>).</summary>
    public void BeginWrite() => _preImages.BeginWrite();

    /// <summary>Returns the index of the first precondition of <paramref name="batch"/> that does not hold, or -1.</summary>
    public int FailedPrecondition(WriteBatch batch)
    {
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            var entry = batch.Precondition(i);
            var key = batch.First(entry);
            var status = KeyLookup.Find(layout, key, entry.Kind == BatchEntryKind.RequireValue ? KeyLookup.Mode.Value : KeyLookup.Mode.KeyOnly, out var value);
            var holds = entry.Kind == BatchEntryKind.RequireAbsent
                ? status != ReadStatus.Found
                : status == ReadStatus.Found && value.SequenceEqual(batch.Second(entry));
            if (!holds)
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>The directory <paramref name="key"/> goes in, splitting a full leaf first.</summary>
    private LayoutNode LeafFor(ReadOnlySpan<byte> key, out int depth)
    {
        while (true)
        {
            var node = layout.Resolve(key, out depth);
            if (node.IsSplit)
            {
                return node;
            }

            var estimate = state.EstimatedCount(node.Prefix);
            if (estimate < 0)
            {
                estimate = Count(node);
            }

            if (estimate + 1 > Limit(estimate))
            {
                estimate = Count(node);
                if (estimate >= maxEntries / 2)
                {
                    Splitter.Split(node);
                    continue;
                }
            }

            state.SetCount(node.Prefix, estimate + 1);
            if (PrepareSplits && estimate + 1 >= PreparedSplitLimits.StartAt(maxEntries) && !PreparedSplitRecord.Exists(root))
            {
                Volatile.Write(ref _preparationWanted, node.Prefix);
            }

            return node;
        }
    }

    private static int Count(LayoutNode node) => LeafSplitter.Count(node);

    /// <summary>The most files a leaf may hold: less near the limit while a split is prepared (its child directories are entries too).</summary>
    private int Limit(int estimate) =>
        estimate + 1 > maxEntries - PreparedSplitLimits.Reserve(maxEntries) && PreparedSplitRecord.Exists(root) ? maxEntries - PreparedSplitLimits.Reserve(maxEntries) : maxEntries;

    /// <summary>True when full leaves get their split prepared beside the writers (<see cref="SplitPreparation"/>).</summary>
    public bool PrepareSplits { get; } = PreparedSplitLimits.For(maxEntries);

    /// <summary>The prefix of a leaf that reached <see cref="PreparedSplitLimits.StartAt"/> since the last call, or null; call after the write lock is let go.</summary>
    public byte[]? TakePreparationWanted() => Interlocked.Exchange(ref _preparationWanted, null);

    /// <summary>Creates a directory and its missing parents, remembering the parents for <see cref="TakeNewParents"/>.</summary>
    private void EnsureDirectory(string path)
    {
        if (Directory.Exists(path))
        {
            return;
        }

        var parent = Path.GetDirectoryName(path)!;
        EnsureDirectory(parent);
        Directory.CreateDirectory(path);
        _newParents.Add(parent);
    }

    /// <summary>The directories that gained a subdirectory since the last call: a durable write syncs them too.</summary>
    public string[] TakeNewParents()
    {
        if (_newParents.Count == 0)
        {
            return [];
        }

        var parents = _newParents.ToArray();
        _newParents.Clear();
        return parents;
    }

    private static bool Unlink(LayoutNode node, ReadOnlySpan<byte> name)
    {
        if (OperatingSystem.IsWindows())
        {
            var path = node.FilePathString(name);
            var existed = File.Exists(path);
            File.Delete(path);
            return existed;
        }

        Span<byte> pathZ = stackalloc byte[node.PathBytes.Length + name.Length + 2];
        node.FilePath(name, pathZ);
        return PosixFile.Unlink(pathZ);
    }

    /// <summary>
    /// Removes a deleted key's hard link in the child directory a split preparation made inside its leaf
    /// (<see cref="SplitPreparation"/>), so its space comes back at once rather than at the publish; no such link is no error.
    /// </summary>
    private static void UnlinkPreparedChild(LayoutNode node, ReadOnlySpan<byte> rest)
    {
        const string hex = "0123456789abcdef";
        Span<byte> name = stackalloc byte[4 + KeyNames.MaxNameLength];
        name[0] = (byte)'x';
        name[1] = (byte)hex[rest[0] >> 4];
        name[2] = (byte)hex[rest[0] & 15];
        name[3] = (byte)'/';
        var length = KeyNames.Write(rest[1..], 0, name[4..]);
        Unlink(node, name[..(4 + length)]);
    }

    /// <summary>Fsyncs a directory; one that is gone has nothing to sync.</summary>
    internal static void SyncDirectory(string path)
    {
        try
        {
            DirectorySync.Sync(path);
        }
        catch (IOException) when (!Directory.Exists(path))
        {
            // A directory that is gone has nothing to sync.
        }
    }

    private string NewTemporary() =>
        Path.Combine(_temporary, $"{Environment.ProcessId}-{Interlocked.Increment(ref _nextTemporary)}.tmp");
}
