using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// The rounds that bring a prepared split's children up to date with its leaf (<see cref="SplitPreparation"/>): each
/// round, under the write lock, relinks every name whose leaf file is not its child's (an inode compare; the child's
/// inode is remembered from the round that linked it, so a round reads one <c>fstatat</c> per name) and unlinks children
/// of names gone from the leaf. What a round changed is synced by <see cref="Sync"/>, after the lock is let go, before
/// a later round finds nothing changed and writes the marker: so no directory sync need run under the lock. A child made
/// in the leaf is made durable by one file system sync, not the leaf's fsync: the marker records it (ADR 0013), so its
/// entry must be on disk first, and a sync of the leaf alone, outside the lock, would make the Puts made in it meanwhile
/// durable before the Puts made just before them elsewhere (ADR 0008, *Relaxed ordering*).
/// </summary>
internal sealed class PreparedPublish(string leaf, PreparedChildren dirs, HashSet<string> linked)
{
    /// <summary>Past this many changed child directories one file system sync replaces their directory syncs.</summary>
    private const int ManyDirectories = 16;

    private readonly Dictionary<string, ulong> _childInodes = new(StringComparer.Ordinal);
    private readonly bool[] _changed = new bool[256];
    private bool _created;

    /// <summary>Each child's number of key files after the last round.</summary>
    public int[] Counts { get; } = new int[256];

    /// <summary>True when the last round relinked, unlinked or made a child directory that is not synced yet.</summary>
    public bool Unsynced { get; private set; }

    /// <summary>Relinks and unlinks what changed since the last round; returns how many names, or -1 when the leaf holds a hashed name (it then splits the old way). Call holding the write lock.</summary>
    public int Round()
    {
        Array.Clear(_changed);
        Array.Clear(Counts);
        var changes = 0;
        var present = new HashSet<string>(StringComparer.Ordinal);
        foreach (var name in TreeWalker.Entries(leaf, directories: false))
        {
            if (!dirs.ChildNameOf(name, out var b, out var childZ))
            {
                if (dirs.SawHashed)
                {
                    return -1;
                }

                continue;
            }

            _created |= dirs.IsNew(b);
            var child = dirs.Child(b);
            var nameZ = dirs.NameZ(name);
            var inode = PosixLinks.InodeAt(dirs.Leaf, nameZ);
            if (inode != 0 && ChildInode(name, child, childZ) != inode)
            {
                PosixWrites.UnlinkAt(child, childZ);
                if (PosixLinks.LinkAt(dirs.Leaf, nameZ, child, childZ) == PosixLinks.LinkResult.Linked)
                {
                    _childInodes[name] = inode;
                }
                else
                {
                    _childInodes.Remove(name);
                }

                _changed[b] = true;
                changes++;
            }

            present.Add(name);
            Counts[b]++;
        }

        foreach (var name in linked)
        {
            if (!present.Contains(name) && dirs.ChildNameOf(name, out var b, out var childZ))
            {
                _childInodes.Remove(name);
                if (PosixWrites.UnlinkAt(dirs.Child(b), childZ))
                {
                    _changed[b] = true;
                    changes++;
                }
            }
        }

        linked.Clear();
        linked.UnionWith(present);
        Unsynced |= _created || Array.IndexOf(_changed, true) >= 0;
        return changes;
    }

    /// <summary>
    /// Makes what the rounds changed durable: each changed child directory, or one file system sync when many changed or a
    /// child was made (its entry in the leaf, before a marker can record it). Notes each sync in <paramref name="holds"/>.
    /// </summary>
    public void Sync(string root, PreparationHolds holds)
    {
        if (_created || _changed.Count(c => c) > ManyDirectories)
        {
            holds.NoteSync();
            FileSystemSync.Sync(root);
        }
        else
        {
            for (var b = 0; b < 256; b++)
            {
                if (_changed[b])
                {
                    holds.NoteSync();
                    PosixWrites.Flush(dirs.Child((byte)b));
                }
            }
        }

        Array.Clear(_changed);
        _created = false;
        Unsynced = false;
    }

    private ulong ChildInode(string name, int child, ReadOnlySpan<byte> childZ)
    {
        if (!_childInodes.TryGetValue(name, out var inode))
        {
            inode = PosixLinks.InodeAt(child, childZ);
            _childInodes[name] = inode;
        }

        return inode;
    }
}
