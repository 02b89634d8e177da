using System.Text;
using DataStore.Batches;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// Every change to the key tree: puts, deletes, batches through the journal, directory splits and recovery.
/// Call only holding the store's exclusive lock.
/// </summary>
internal sealed class TreeWriter(string root, Layout layout, SharedState state, int maxEntries)
{
    /// <summary>Batches with at most this many puts flush each file; larger ones sync the whole file system once.</summary>
    private const int PerFileSyncLimit = 32;

    private readonly string _temporary = Path.Combine(root, "tmp");
    private readonly string _journal = Path.Combine(root, BatchJournal.FileName);
    private readonly HashSet<string> _newParents = [];
    private readonly PreImages _preImages = new(root, state);
    private LeafSplitter? _splitterInstance;

    private LeafSplitter Splitter => _splitterInstance ??= new LeafSplitter(root, state, NewTemporary, EnsureDirectory);
    private long _nextTemporary;
    private ChangeFeed.FileSystem.ChangeLogFiles? _log;
    private readonly ChangeFeed.ChangeRecord _record = new();

    /// <summary>The store's change log (ADR 0020), also for recovering a journal that carries a sequence.</summary>
    public ChangeFeed.FileSystem.ChangeLogFiles Log => _log ??= new ChangeFeed.FileSystem.ChangeLogFiles(root);

    /// <summary>True when the store's change feed is on: every batch gets the next sequence and its record in <see cref="Log"/>.</summary>
    public bool LogCommits { get; set; }

    /// <summary>Test hook: called before each operation of a batch or a journal replay on this thread, to inject a failure.</summary>
    [ThreadStatic]
    internal static Action? BeforeOperationForTests;

    /// <summary>Puts one key; returns the directory whose entry changed (for a durable sync).</summary>
    /// <remarks>
    /// A single put writes a temporary file and renames it over the key's file, so a lock-free reader sees the old
    /// file or the new one. A batch (<paramref name="inPlace"/>) writes the key's file where it is: its change counter
    /// is odd, so readers retry rather than read a file being written, and a crash is repaired from its journal.
    /// </remarks>
    public string Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool flush, bool inPlace = false)
    {
        var node = LeafFor(key, out var depth);
        var rest = key[depth..];
        var slot = 0;
        if (KeyNames.IsHashed(rest))
        {
            KeyLookup.FindIn(node, key, rest, KeyLookup.Mode.KeyOnly, out _, out slot);
        }

        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength];
        var target = node.FilePathString(name[..KeyNames.Write(rest, slot, name)]);
        _preImages.Keep(target, key);
        if (inPlace)
        {
            try
            {
                KeyFile.Write(target, key, value, flush, inPlace: true);
            }
            catch (DirectoryNotFoundException)
            {
                EnsureDirectory(node.Path);
                KeyFile.Write(target, key, value, flush, inPlace: true);
            }

            return node.Path;
        }

        var temporary = NewTemporary();
        KeyFile.Write(temporary, key, value, flush);
        MoveInto(temporary, target, node);
        return node.Path;
    }

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

            return Unlink(node, name[..length]) ? node.Path : null;
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
        foreach (var key in keys)
        {
            if (Delete(key) is { } directory)
            {
                touched.Add(directory);
            }
        }

        return keys.Count;
    }

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

    /// <summary>Journals <paramref name="batch"/>, applies it, makes it durable and removes the journal; returns how many keys its range deletes removed.</summary>
    public long Apply(WriteBatch batch)
    {
        state.BeginChange();
        var sequence = LogCommits ? Log.Latest() + 1 : 0;
        BatchJournal.Write(batch, NewTemporary(), _journal, sequence);
        DirectorySync.Sync(root);
        var puts = 0;
        for (var i = 0; i < batch.OperationCount; i++)
        {
            puts += batch.Operation(i).Kind == BatchEntryKind.Put ? 1 : 0;
        }

        var perFile = puts <= PerFileSyncLimit;
        var touched = new HashSet<string>();
        var removed = 0L;
        for (var i = 0; i < batch.OperationCount; i++)
        {
            var entry = batch.Operation(i);
            removed += ApplyOne(entry.Kind, batch.First(entry), batch.Second(entry), perFile, touched);
        }

        Finish(perFile, touched, sequence, sequence > 0 ? _record.Clear().Add(batch).Bytes : default);
        return removed;
    }

    /// <summary>Finishes whatever a dead writer left: a split, then a journaled batch; removes stale temporary files.</summary>
    /// <remarks>
    /// A failure that is not the file system's (a bug) becomes a <see cref="DataStoreException"/> naming the store; the
    /// journal stays, so the change is still completed whole once the cause is gone, and nothing half-applied is shown.
    /// </remarks>
    public void Recover()
    {
        try
        {
            RecoverUnfinished();
        }
        catch (Exception e) when (e is not DataStoreException && !FileSystemErrors.IsFileSystemError(e))
        {
            throw new DataStoreException(StoreFailure.Engine, root, StoreBackend.FileSystem,
                $"completing the unfinished change recorded in '{_journal}' failed ({e.GetType().Name}: {e.Message}); the journal stays and the next open or write completes it once the cause is fixed.", e);
        }
    }

    private void RecoverUnfinished()
    {
        // Readers in other processes must not read files the replay below rewrites in place.
        state.BeginChange();
        _preImages.BeginWrite();
        var pending = Path.Combine(root, LeafSplitter.PendingFile);
        if (File.Exists(pending))
        {
            Splitter.Split(layout.NodeOf(File.ReadAllBytes(pending)));
        }

        if (File.Exists(_journal))
        {
            var touched = new HashSet<string>();
            if (BatchJournal.Read(_journal, out var sequence) is { } operations)
            {
                foreach (var operation in operations)
                {
                    _ = ApplyOne(operation.Kind, operation.First, operation.Second, perFile: false, touched);
                }

                FileSystemSync.Sync(root);
                if (sequence > 0)
                {
                    Log.Recover(sequence, _record.Clear().Add(BatchJournal.ToBatch(operations)).Bytes);
                }
            }

            File.Delete(_journal);
        }

        foreach (var stale in TreeWalker.Entries(_temporary, directories: false))
        {
            File.Delete(Path.Combine(_temporary, stale));
        }

        state.BumpLayout();
        state.EndChange();
    }

    /// <summary>Removes stale temporary files. Directories stay, even empty: readers keep handles on them (<see cref="DirectoryHandles"/>).</summary>
    public void Compact()
    {
        _preImages.RemoveLeftovers();
        foreach (var stale in TreeWalker.Entries(_temporary, directories: false))
        {
            File.Delete(Path.Combine(_temporary, stale));
        }
    }

    private long ApplyOne(BatchEntryKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, bool perFile, HashSet<string> touched)
    {
        BeforeOperationForTests?.Invoke();
        switch (kind)
        {
            case BatchEntryKind.Put:
                touched.Add(Put(first, second, perFile, inPlace: true));
                return 0;
            case BatchEntryKind.Delete:
                if (Delete(first) is { } directory)
                {
                    touched.Add(directory);
                }

                return 0;
            case BatchEntryKind.DeletePrefix:
                return DeleteRange(first.ToArray(), KeyOrder.TryGetPrefixEnd(first, out var end) ? end : [], touched);
            case BatchEntryKind.DeleteRange:
                return DeleteRange(first.ToArray(), second.ToArray(), touched);
            default:
                return 0;
        }
    }

    /// <summary>Makes an applied change durable, appends its change-log record (a <paramref name="sequence"/> above 0), then drops the journal and ends the change.</summary>
    public void Finish(bool perFile, HashSet<string> touched, long sequence = 0, ReadOnlySpan<byte> record = default)
    {
        if (perFile)
        {
            touched.UnionWith(TakeNewParents());
            foreach (var directory in touched)
            {
                SyncDirectory(directory);
            }
        }
        else
        {
            TakeNewParents();
            FileSystemSync.Sync(root);
        }

        if (sequence > 0)
        {
            Log.Append(sequence, record); // after the data, so a subscriber can read what it names; before the journal goes
        }

        // The journal's removal must be durable too, or a power loss could replay it over later durable writes.
        File.Delete(_journal);
        DirectorySync.Sync(root);
        state.EndChange();
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

            if (estimate + 1 > maxEntries)
            {
                estimate = Count(node);
                if (estimate >= maxEntries / 2)
                {
                    Splitter.Split(node);
                    continue;
                }
            }

            state.SetCount(node.Prefix, estimate + 1);
            return node;
        }
    }

    private static int Count(LayoutNode node) => LeafSplitter.Count(node);

    private void MoveInto(string temporary, string target, LayoutNode node)
    {
        try
        {
            File.Move(temporary, target, overwrite: true);
        }
        catch (DirectoryNotFoundException)
        {
            EnsureDirectory(node.Path);
            File.Move(temporary, target, overwrite: true);
        }
    }

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

    private static void SyncDirectory(string path)
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
