using System.Diagnostics;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// A leaf split prepared beside the writers (ADR 0008, Linux): the leaf's key files get hard links in child directories
/// made inside the leaf (invisible: a leaf's readers list only its files), in steps that hold the write lock a few
/// milliseconds each; one file system sync makes the links durable; the publish, under the lock, relinks only the names
/// whose file changed since (an inode compare per name, no data moved), syncs what it relinked and writes the marker;
/// the leaf's old names go afterwards. <see cref="PreparedSplitRecord"/> lets recovery undo or finish each stage. Runs on the thread pool.
/// </summary>
internal sealed class SplitPreparation(string root, Layout layout, SharedState state, int maxEntries, Func<Func<bool>, bool> underWriteLock, Func<bool> stopping)
{
    private const int LinksPerStep = 256;
    private const int PublishRounds = 6;
    private const int FewRelinks = 4;
    private static readonly TimeSpan StepTime = TimeSpan.FromMilliseconds(10);

    private readonly Guid _token = Guid.NewGuid();
    private readonly HashSet<string> _linked = new(StringComparer.Ordinal);
    private readonly List<byte> _rest = [];
    private byte[] _prefix = [];
    private string _leaf = "";
    private PreparedChildren? _dirs;

    /// <summary>Test hooks, given the store's directory: called outside the lock before the publish, and after it (before the old names go).</summary>
    internal static Action<string>? BeforePublishForTests, AfterPublishForTests;

    /// <summary>Names the publish relinked or unlinked under the lock; -1 until it published.</summary>
    public int Changes { get; private set; } = -1;

    /// <summary>Test hook: called under the lock when a split is published, with how many names it relinked or unlinked there.</summary>
    internal static Action<string, int>? PublishedForTests;

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

            PreparedSplitRecord.Sync(root);
            _dirs = new PreparedChildren(_leaf);
            var names = TreeWalker.Entries(_leaf, directories: false);
            for (var next = 0; next < names.Count;)
            {
                if (stopping() || !underWriteLock(() => LinkStep(names, ref next)))
                {
                    return Stop();
                }
            }

            BeforePublishForTests?.Invoke(root);
            FileSystemSync.Sync(root); // the links and the child directories, before any marker can name them
            for (var round = 1; ; round++)
            {
                var outcome = Outcome.Stopped;
                if (stopping() || !underWriteLock(() => Publish(round == PublishRounds, out outcome)) || outcome == Outcome.Stopped)
                {
                    return Stop();
                }

                if (outcome == Outcome.Published)
                {
                    break;
                }

                FileSystemSync.Sync(root); // many writes landed: sync their relinks outside the lock, then check again
            }

            DirectorySync.Sync(_leaf); // the marker, before any old name goes
            AfterPublishForTests?.Invoke(root);
            RemoveOldNames();
            FileSystemSync.Sync(root); // the old names' removal, before the record that lets recovery finish it goes
            return underWriteLock(() => PreparedSplitRecord.IsOwnedBy(root, _token) && PreparedSplitRecord.Delete(root));
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

    /// <summary>Claims the leaf (under the lock): nothing else prepared, the leaf not split and full enough; writes the record.</summary>
    private bool Claim() => underWriteLock(() =>
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
            underWriteLock(() =>
            {
                if (PreparedSplitRecord.IsOwnedBy(root, _token))
                {
                    PreparedSplitRecord.Recover(root, layout);
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
    /// Under the lock: relinks every name whose leaf file is not its child's, unlinks children of names gone from the
    /// leaf, and (when few changed, or on the last round) syncs the child directories it changed and writes the marker.
    /// </summary>
    private bool Publish(bool last, out Outcome outcome)
    {
        outcome = Outcome.Stopped;
        if (!PreparedSplitRecord.IsOwnedBy(root, _token) || File.Exists(Path.Combine(_leaf, KeyNames.SplitMarker)))
        {
            return true;
        }

        var dirs = _dirs!;
        var changed = new bool[256];
        var counts = new int[256];
        var created = false;
        var changes = 0;
        var present = new HashSet<string>(StringComparer.Ordinal);
        foreach (var name in TreeWalker.Entries(_leaf, directories: false))
        {
            if (!dirs.ChildNameOf(name, out var b, out var childZ))
            {
                if (dirs.SawHashed)
                {
                    return true;
                }

                continue;
            }

            created |= dirs.IsNew(b);
            var child = dirs.Child(b);
            var nameZ = dirs.NameZ(name);
            var inode = PosixLinks.InodeAt(dirs.Leaf, nameZ);
            if (inode != 0 && PosixLinks.InodeAt(child, childZ) != inode)
            {
                PosixWrites.UnlinkAt(child, childZ);
                PosixLinks.LinkAt(dirs.Leaf, nameZ, child, childZ);
                changed[b] = true;
                changes++;
            }

            present.Add(name);
            counts[b]++;
        }

        foreach (var name in _linked)
        {
            if (!present.Contains(name) && dirs.ChildNameOf(name, out var b, out var childZ))
            {
                PosixWrites.UnlinkAt(dirs.Child(b), childZ);
                changed[b] = true;
                changes++;
            }
        }

        _linked.Clear();
        _linked.UnionWith(present);
        if (!last && changes > FewRelinks)
        {
            outcome = Outcome.Again;
            return true;
        }

        for (var b = 0; b < 256; b++)
        {
            if (changed[b])
            {
                PosixWrites.Flush(dirs.Child((byte)b));
            }
        }

        if (created)
        {
            PosixWrites.Flush(dirs.Leaf); // a child directory made in this round, before the marker that publishes it
        }

        state.BeginChange();
        File.WriteAllBytes(Path.Combine(_leaf, KeyNames.SplitMarker), []);
        for (var b = 0; b < 256; b++)
        {
            if (counts[b] > 0)
            {
                state.SetCount([.. _prefix, (byte)b], counts[b]);
            }
        }

        state.ForgetCount(_prefix);
        layout.NodeOf(_prefix).MarkSplit();
        state.BumpLayout();
        Changes = changes;
        PublishedForTests?.Invoke(root, changes);
        outcome = Outcome.Published;
        return true;
    }

    /// <summary>Removes the split leaf's old names, a step at a time under the lock (so no reader lists them).</summary>
    private void RemoveOldNames()
    {
        var names = TreeWalker.Entries(_leaf, directories: false);
        for (var next = 0; next < names.Count;)
        {
            var more = underWriteLock(() =>
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
}
