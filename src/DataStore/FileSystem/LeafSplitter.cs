using System.Text;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// Splits a full leaf directory into one child per next key byte, crash-safely: the prefix is recorded in
/// <see cref="PendingFile"/> (flushed) first and removed only once the moves are on disk, so the next writer
/// redoes an interrupted split. Call holding the store's exclusive lock, with the change counter odd.
/// </summary>
internal sealed class LeafSplitter(string root, SharedState state, Func<string> newTemporary, Action<string> ensureDirectory)
{
    /// <summary>The file in the store directory that records a split in progress.</summary>
    public const string PendingFile = "split.pending";

    /// <summary>The number of entries in a leaf's directory.</summary>
    public static int Count(LayoutNode node) => TreeWalker.Entries(node.Path, directories: false).Count;

    /// <summary>Moves every key file of a leaf into one child directory per next key byte; finishes a split a crash interrupted.</summary>
    public void Split(LayoutNode node)
    {
        state.BeginChange();
        var pending = Path.Combine(root, PendingFile);
        if (!File.Exists(pending))
        {
            var temporary = newTemporary();
            using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write))
            {
                file.Write(node.Prefix);
                file.Flush(flushToDisk: true);
            }

            File.Move(temporary, pending, overwrite: true);
            DirectorySync.Sync(root);
        }

        var depth = node.Prefix.Length;
        var rest = new List<byte>();
        var children = new SortedSet<byte>();
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength];
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

            var child = node.Child(key[depth]);
            ensureDirectory(child.Path);
            var childRest = key.AsSpan(depth + 1);
            var slot = 0;
            if (KeyNames.IsHashed(childRest))
            {
                KeyLookup.FindIn(child, key, childRest, KeyLookup.Mode.KeyOnly, out _, out slot);
            }

            File.Move(source, child.FilePathString(name[..KeyNames.Write(childRest, slot, name)]), overwrite: true);
            children.Add(key[depth]);
        }

        var marker = Path.Combine(node.Path, KeyNames.SplitMarker);
        ensureDirectory(node.Path);
        File.WriteAllBytes(marker, []);
        foreach (var b in children)
        {
            var child = node.Child(b);
            state.SetCount(child.Prefix, Count(child));
        }

        // The moves, the new directories and the marker must be on disk before the pending record goes.
        FileSystemSync.Sync(root);
        state.ForgetCount(node.Prefix);
        node.MarkSplit();
        state.BumpLayout();
        File.Delete(pending);
    }
}
