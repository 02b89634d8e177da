using System.Diagnostics;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// A leaf split prepared beside the writers (ADR 0008, Linux): the leaf's key files get hard links in child directories
/// made inside the leaf (invisible: a leaf's readers list only its files), in steps that hold the write lock a few
/// milliseconds each; one file system sync makes the links durable; the publish, under the lock, relinks only the names
/// whose file changed since (an inode compare per name, no data moved) in rounds whose changes are synced after the lock
/// is let go, and writes the marker in a round that found nothing new (<see cref="PreparedPublish"/>); the leaf's old
/// names go afterwards. <see cref="PreparedSplitRecord"/> lets recovery undo or finish each stage. Runs on the thread pool.
/// </summary>
internal sealed class SplitPreparation(string root, Layout layout, SharedState state, int maxEntries, Func<Func<bool>, bool> underWriteLock, Func<bool> stopping, UnsyncedDirectories? unsynced = null)
{
    private const int LinksPerStep = 256;
    private const int PublishRounds = 6;
    private static readonly TimeSpan StepTime = TimeSpan.FromMilliseconds(10);

    private readonly Guid _token = Guid.NewGuid();
    private readonly HashSet<string> _linked = new(StringComparer.Ordinal);
    private readonly List<byte> _rest = [];
    private byte[] _prefix = [];
    private string _leaf = "";
    private PreparedChildren? _dirs;
    private int _changes;
    private readonly PreparationHolds _holds = new();

    /// <summary>Test hooks, given the store's directory: called outside the lock before the publish, and after it (before the old names go).</summary>
    internal static Action<string>? BeforePublishForTests, AfterPublishForTests;

    /// <summary>Names the publish rounds relinked or unlinked under the lock; -1 until it published.</summary>
    public int Changes { get; private set; } = -1;

    /// <summary>What the preparation did holding the write lock (each step's longest hold, syncs under the lock).</summary>
    public PreparationHolds Holds => _holds;

    /// <summary>Test hook: called under the lock when a split is published, with how many names its rounds relinked or unlinked and how many syncs it made holding the lock.</summary>
    internal static Action<string, int, int>? PublishedForTests;

    /// <summary>Prepares and publishes the split of the leaf <paramref name="prefix"/>; false when it stopped (the leaf then splits the old way when full), true also when there was nothing to do.</summary>
    public bool Run(byte[] prefix)
    {
        _prefix = prefix;
        _leaf = layout.NodeOf(prefix).Path;
        try
        {
            if (!Claim())
            {
                return true; // someone else prepares a split, the leaf was split, or it holds fewer files than estimated
            }

            _holds.NoteSync();
            PreparedSplitRecord.Sync(root);
            _dirs = new PreparedChildren(_leaf);
            var names = TreeWalker.Entries(_leaf, directories: false);
            for (var next = 0; next < names.Count;)
            {
                if (stopping() || !Locked("link", () => LinkStep(names, ref next)))
                {
                    return Stop();
                }
            }

            BeforePublishForTests?.Invoke(root);
            _holds.NoteSync();
            FileSystemSync.Sync(root); // the links and the child directories, before any marker can name them
            var publish = new PreparedPublish(_leaf, _dirs, _linked);
            for (var round = 1; ; round++)
            {
                var outcome = Outcome.Stopped;
                var last = round == PublishRounds;
                if (stopping() || !Locked(last ? "last round" : "round", () => Publish(publish, last, out outcome)) || outcome == Outcome.Stopped)
                {
                    return Stop();
                }

                if (outcome == Outcome.Published)
                {
                    break;
                }

                publish.Sync(root, _holds); // what the round changed (children only: no write is visible there before the marker), then check again
            }

            _holds.NoteSync();
            SyncMarker(); // before any old name goes
            AfterPublishForTests?.Invoke(root);
            RemoveOldNames();
            _holds.NoteSync();
            FileSystemSync.Sync(root); // the old names' removal, before the record that lets recovery finish it goes
            return Locked("record", () => PreparedSplitRecord.IsOwnedBy(root, _token) && PreparedSplitRecord.Delete(root));
        }
        catch
        {
            Stop();
            throw;
        }
        finally
        {
            _dirs?.Dispose();
        }
    }

    private enum Outcome { Stopped, Again, Published }

    /// <summary>
    /// Makes the marker durable, with the entries of the children made in the leaf: the leaf's fsync, or at Relaxed one file
    /// system sync, which also covers every Relaxed write made before it. The leaf's fsync would make the Puts made in the
    /// leaf while it ran durable without the Puts made just before them in other directories (<see cref="UnsyncedDirectories.SyncAll"/>).
    /// </summary>
    private void SyncMarker()
    {
        if (unsynced is { } relaxed)
        {
            relaxed.SyncAll(root);
        }
        else
        {
            DirectorySync.Sync(_leaf);
        }
    }

    /// <summary>Claims the leaf (under the lock): nothing else prepared, the leaf not split and full enough; writes the record.</summary>
    private bool Claim() => Locked("claim", () =>
    {
        if (PreparedSplitRecord.Exists(root) || File.Exists(Path.Combine(_leaf, KeyNames.SplitMarker)))
        {
            return false;
        }

        var count = LeafSplitter.Count(layout.NodeOf(_prefix));
        if (count < PreparedSplitLimits.StartAt(maxEntries))
        {
            state.SetCount(_prefix, count); // the estimate over-counted (overwrites): start again from the exact count
            return false;
        }

        PreparedSplitRecord.RemoveChildren(_leaf); // left by a preparation whose record a power loss took
        PreparedSplitRecord.Write(root, _token, _prefix);
        return true;
    });

    /// <summary>Stops: what was made is undone under the lock (or by the next recovery, when the lock cannot be had).</summary>
    private bool Stop()
    {
        try
        {
            Locked("stop", () =>
            {
                if (PreparedSplitRecord.IsOwnedBy(root, _token))
                {
                    PreparedSplitRecord.Recover(root, layout, unsynced);
                }

                return true;
            });
        }
        catch (Exception e) when (e is DataStoreException || FileSystemErrors.IsFileSystemError(e))
        {
            // The record stays: the next open, old-way split or recovery undoes it.
        }

        return false;
    }

    /// <summary>Links the next names (under the lock, a few milliseconds); false when the preparation must stop.</summary>
    private bool LinkStep(List<string> names, ref int next)
    {
        if (!PreparedSplitRecord.IsOwnedBy(root, _token))
        {
            return false;
        }

        var dirs = _dirs!;
        var begun = Stopwatch.GetTimestamp();
        for (var done = 0; next < names.Count && done < LinksPerStep && Stopwatch.GetElapsedTime(begun) < StepTime; next++, done++)
        {
            var name = names[next];
            if (!dirs.ChildNameOf(name, out var b, out var childZ))
            {
                if (dirs.SawHashed)
                {
                    return false;
                }

                continue;
            }

            var child = dirs.Child(b);
            if (PosixLinks.LinkAt(dirs.Leaf, dirs.NameZ(name), child, childZ) != PosixLinks.LinkResult.SourceMissing)
            {
                _linked.Add(name);
            }
        }

        return true;
    }

    /// <summary>
    /// Under the lock: one round of <see cref="PreparedPublish"/>; when it changed nothing that is not synced yet (or on
    /// the last round, after syncing only what this round changed), writes the marker and publishes the children.
    /// </summary>
    private bool Publish(PreparedPublish publish, bool last, out Outcome outcome)
    {
        outcome = Outcome.Stopped;
        if (!PreparedSplitRecord.IsOwnedBy(root, _token) || File.Exists(Path.Combine(_leaf, KeyNames.SplitMarker)))
        {
            return true;
        }

        var changes = publish.Round();
        if (changes < 0)
        {
            return true;
        }

        _changes += changes;
        if (publish.Unsynced)
        {
            // Another round needs room: where the writes of a few more rounds like this one could fill the leaf (less the
            // room kept for the children), it publishes now rather than split the old way.
            var room = maxEntries - PreparedSplitLimits.Reserve(maxEntries) - publish.Counts.Sum();
            if (!last && room >= 4 * Math.Max(changes, 1))
            {
                outcome = Outcome.Again; // synced after the lock is let go, then checked again
                return true;
            }

            publish.Sync(root, _holds); // writers never paused for long enough: only what changed since the last round
        }

        state.BeginChange();
        SplitMarker.Write(_leaf, b => publish.Counts[b] > 0); // every child made was synced before a round found nothing new
        unsynced?.Add(_leaf); // the marker's entry, until SyncMarker: a batch before it syncs the leaf with the Puts made in the children
        for (var b = 0; b < 256; b++)
        {
            if (publish.Counts[b] > 0)
            {
                state.SetCount([.. _prefix, (byte)b], publish.Counts[b]);
            }
        }

        state.ForgetCount(_prefix);
        layout.NodeOf(_prefix).MarkSplit();
        state.BumpLayout();
        Changes = _changes;
        PublishedForTests?.Invoke(root, _changes, _holds.SyncsUnderLock);
        outcome = Outcome.Published;
        return true;
    }

    /// <summary>Removes the split leaf's old names, a step at a time under the lock (so no reader lists them).</summary>
    private void RemoveOldNames()
    {
        var names = TreeWalker.Entries(_leaf, directories: false);
        for (var next = 0; next < names.Count;)
        {
            var more = Locked("remove", () =>
            {
                if (!PreparedSplitRecord.IsOwnedBy(root, _token))
                {
                    return false;
                }

                for (var done = 0; next < names.Count && done < LinksPerStep; next++, done++)
                {
                    if (PreparedSplitRecord.IsOldName(names[next], _rest))
                    {
                        PosixWrites.UnlinkAt(_dirs!.Leaf, _dirs.NameZ(names[next]));
                    }
                }

                return true;
            });
            if (!more)
            {
                return;
            }
        }
    }

    /// <summary>Runs one step holding the write lock, timed as a hold of <paramref name="step"/>.</summary>
    private bool Locked(string step, Func<bool> body) => underWriteLock(() => _holds.Time(step, body));
}
