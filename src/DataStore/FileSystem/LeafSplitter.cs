using System.Text;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// Splits a full leaf directory into one child per next key byte, crash-safely: the prefix is recorded in
/// <see cref="PendingFile"/> (flushed; <c>split.pending.2</c> and on for further splits before the sync) first, the
/// files are moved by renames, and the record stays until a file system sync made after the moves has completed, so after a crash or a power loss the split is redone. That sync runs
/// after the write lock is let go (the Relaxed background sync, or the Durable write itself; ADR 0008), so no writer or
/// reader waits for it. Call holding the store's exclusive lock.
/// </summary>
internal sealed class LeafSplitter(string root, Layout layout, SharedState state, Func<string> newTemporary, Action<string> ensureDirectory, UnsyncedDirectories? unsynced)
{
    /// <summary>The file in the store directory that records the first split whose moves are not yet known to be on disk.</summary>
    public const string PendingFile = "split.pending";

    /// <summary>Test counter: key files this thread moved in splits made the old way, holding the write lock.</summary>
    [ThreadStatic]
    internal static int MovesForTests;

    /// <summary>The number of entries in a leaf's directory.</summary>
    public static int Count(LayoutNode node) => TreeWalker.Entries(node.Path, directories: false).Count;

    /// <summary>The records of splits not yet synced, oldest first: <see cref="PendingFile"/>, then <c>split.pending.2</c>, <c>.3</c>, ...</summary>
    public static List<string> PendingRecords(string root)
    {
        var records = new List<string>();
        for (var n = 1; File.Exists(RecordPath(root, n)); n++)
        {
            records.Add(RecordPath(root, n));
        }

        return records;
    }

    /// <summary>Moves every key file of a leaf into one child directory per next key byte; the moves are synced later.</summary>
    public void Split(LayoutNode node)
    {
        state.BeginChange();

        // A split prepared beside the writers (SplitPreparation) gives way: its children and record go first.
        PreparedSplitRecord.Recover(root, layout, unsynced);
        PreparedSplitRecord.RemoveChildren(node.Path);

        // Splits not synced yet each keep their record (a full leaf whose keys share their next byte splits again at
        // once, so splits come in chains), numbered in order, so a redo splits parents before children.
        var temporary = newTemporary();
        using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write))
        {
            file.Write(node.Prefix);
            file.Flush(flushToDisk: true);
        }

        File.Move(temporary, RecordPath(root, PendingRecords(root).Count + 1), overwrite: true);
        DirectorySync.Sync(root);
        Move(node, redo: false);
    }

    /// <summary>Completes the splits the pending records name (moving what a crash left), syncs the file system and drops the records.</summary>
    public void FinishPending()
    {
        PreparedSplitRecord.Recover(root, layout, unsynced);
        var records = PendingRecords(root);
        if (records.Count == 0)
        {
            return;
        }

        state.BeginChange();
        foreach (var record in records)
        {
            Move(layout.NodeOf(File.ReadAllBytes(record)), redo: true);
        }

        // The moves, the new directories and the markers must be on disk before the records go.
        FileSystemSync.Sync(root);
        DropRecords(root);
    }

    /// <summary>Removes every pending record, newest first; call once a file system sync made after their splits completed.</summary>
    public static void DropRecords(string root)
    {
        var records = PendingRecords(root);
        for (var i = records.Count - 1; i >= 0; i--)
        {
            File.Delete(records[i]);
        }
    }

    private static string RecordPath(string root, int n) => Path.Combine(root, n == 1 ? PendingFile : $"{PendingFile}.{n}");

    /// <remarks>
    /// A redo (after a crash or a power loss) finds some files moved already. A key whose file is in both places was
    /// written again after the split completed (a power loss kept that write but not the split's rename): the child's
    /// file is the newer one, so the leaf's copy is removed, never moved over it.
    /// </remarks>
    private void Move(LayoutNode node, bool redo)
    {
        var depth = node.Prefix.Length;
        var rest = new List<byte>();
        var moved = new int[256];
        var made = new bool[256];
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength + 1];
        foreach (var entry in TreeWalker.Entries(node.Path, directories: false))
        {
            var source = Path.Combine(node.Path, entry);
            byte[] key;
            switch (KeyNames.Classify(entry, rest))
            {
                case NameKind.Plain when rest.Count > 0:
                    key = [.. node.Prefix, .. rest];
                    break;
                case NameKind.Hashed:
                    var path = Encoding.UTF8.GetBytes(source + "\0");
                    if (KeyFile.Read(path, false, out var stored, out _) != ReadStatus.Found)
                    {
                        File.Delete(source);
                        continue;
                    }

                    key = stored.ToArray();
                    break;
                default:
                    continue;
            }

            var b = key[depth];
            var child = node.Child(b);
            if (!made[b])
            {
                ensureDirectory(child.Path); // once per child, not per file
                made[b] = true;
            }

            var childRest = key.AsSpan(depth + 1);
            var slot = 0;
            if (KeyNames.IsHashed(childRest))
            {
                KeyLookup.FindIn(child, key, childRest, KeyLookup.Mode.KeyOnly, out _, out slot);
            }

            var length = KeyNames.Write(childRest, slot, name);
            name[length] = 0;
            if (!SplitMoves.MovedAt(node, entry, child, name[..(length + 1)], redo))
            {
                var target = child.FilePathString(name[..length]);
                if (redo && File.Exists(target))
                {
                    File.Delete(source);
                }
                else
                {
                    File.Move(source, target, overwrite: true);
                }
            }

            moved[b]++;
            MovesForTests++;
        }

        // The marker records the children that hold keys (a redo: also those an earlier attempt filled), so a child deleted later is an error.
        ensureDirectory(node.Path);
        SplitMarker.Write(node.Path, b => moved[b] > 0 || (redo && Directory.Exists(node.Child((byte)b).Path)));
        for (var b = 0; b < moved.Length; b++)
        {
            if (moved[b] > 0)
            {
                // A fresh split's children held nothing before: what moved is their count (no listing of 256 directories).
                var child = node.Child((byte)b);
                state.SetCount(child.Prefix, redo ? Count(child) : moved[b]);
            }
        }

        state.ForgetCount(node.Prefix);
        node.MarkSplit();
        state.BumpLayout();
    }
}
