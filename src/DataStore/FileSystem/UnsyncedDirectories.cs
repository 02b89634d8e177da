using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// The directories a Relaxed store's Puts and Deletes changed without a sync since the background sync last covered them
/// (ADR 0008, *Relaxed ordering*). Whatever syncs and so orders itself (a batch's journal, a prepared split's leaf) first makes
/// them durable, so a power loss never keeps it and loses a write acknowledged before it.
/// </summary>
/// <remarks>Writers add under the store's write lock; the background sync marks and forgets from its own thread.</remarks>
internal sealed class UnsyncedDirectories
{
    /// <summary>Test hook: called on this thread with each directory <see cref="Sync"/> fsyncs, or with the root when it syncs the file system instead.</summary>
    [ThreadStatic]
    internal static Action<string>? SyncingForTests;

    private readonly object _gate = new();
    private readonly Dictionary<string, long> _changed = new(StringComparer.Ordinal);
    private long _generation = 1;

    /// <summary>Remembers that <paramref name="directory"/>'s entries changed without a sync.</summary>
    public void Add(string directory)
    {
        lock (_gate)
        {
            _changed[directory] = _generation;
        }
    }

    /// <summary>Starts a file system sync: returns the generation that <see cref="Forget"/> drops once it completed.</summary>
    public long Mark()
    {
        lock (_gate)
        {
            return _generation++;
        }
    }

    /// <summary>Drops the directories added before <see cref="Mark"/> returned <paramref name="generation"/> (a file system sync made them durable).</summary>
    public void Forget(long generation) => Drop(generation, null);

    /// <summary>
    /// Makes every remembered directory durable: one directory's fsync, or one sync of <paramref name="root"/>'s file system
    /// when there are more, or when <paramref name="whole"/> (a split's moves are unsynced: a directory it made may not be in
    /// its parent on disk yet, and a redo of the split would recreate it empty). Never several directory fsyncs: a power loss
    /// between two of them could keep a later Put (its directory synced first) and lose an earlier one (ADR 0008).
    /// </summary>
    public void Sync(string root, bool whole = false)
    {
        string[] directories;
        long generation;
        lock (_gate)
        {
            if (_changed.Count == 0)
            {
                return;
            }

            directories = [.. _changed.Keys];
            generation = _generation++;
        }

        if (whole || directories.Length > 1)
        {
            SyncFileSystem(root, generation);
            return;
        }

        SyncingForTests?.Invoke(directories[0]);
        TreeWriter.SyncDirectory(directories[0]);
        Drop(generation, directories);
    }

    /// <summary>
    /// Syncs <paramref name="root"/>'s file system and forgets every remembered directory, even when none is: for a sync
    /// outside the write lock that orders itself (a prepared split's marker). A directory sync there would also make
    /// durable the writes made into it while it ran, and a Put made just before them in another directory, added after
    /// any sync of the remembered ones, would not be (ADR 0008, *Relaxed ordering*); one file system sync covers every
    /// write made before it.
    /// </summary>
    public void SyncAll(string root) => SyncFileSystem(root, Mark());

    private void SyncFileSystem(string root, long generation)
    {
        SyncingForTests?.Invoke(root);
        FileSystemSync.Sync(root);
        Drop(generation, null);
    }

    /// <summary>Drops the directories (all, or only <paramref name="only"/>) last added at or before <paramref name="generation"/>.</summary>
    private void Drop(long generation, string[]? only)
    {
        lock (_gate)
        {
            foreach (var directory in only ?? [.. _changed.Keys])
            {
                if (_changed.TryGetValue(directory, out var added) && added <= generation)
                {
                    _changed.Remove(directory);
                }
            }
        }
    }
}
