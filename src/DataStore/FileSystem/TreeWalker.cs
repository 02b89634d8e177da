using System.IO.Enumeration;
using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// Reads every key in [start, end) in key order, visiting only directories whose prefix can hold such a key.
/// Call holding the store's shared or exclusive lock.
/// </summary>
internal static class TreeWalker
{
    /// <summary>How many directories this thread has listed (tests check that scans stay inside their prefix).</summary>
    [ThreadStatic]
    internal static int DirectoriesListed;

    /// <summary>How many key files this thread has read (tests check that a scan reads what it returns, not the rest of its range).</summary>
    [ThreadStatic]
    internal static int FilesRead;

    /// <summary>Calls <paramref name="visit"/> with each key (and value unless <paramref name="keysOnly"/>) in [start, end), ascending.</summary>
    public static void Walk(LayoutNode node, byte[] start, byte[] end, bool keysOnly, Action<ReadOnlySpan<byte>, ReadOnlySpan<byte>> visit) =>
        Walk(node, start, end, keysOnly, (key, value) =>
        {
            visit(key, value);
            return true;
        });

    /// <summary>As the other overload, but stops as soon as <paramref name="visit"/> returns false; returns false when it stopped early.</summary>
    public static bool Walk(LayoutNode node, byte[] start, byte[] end, bool keysOnly, Func<ReadOnlySpan<byte>, ReadOnlySpan<byte>, bool> visit) =>
        node.IsSplit ? WalkSplit(node, start, end, keysOnly, visit) : WalkLeaf(node, start, end, keysOnly, visit);

    private static bool WalkSplit(LayoutNode node, byte[] start, byte[] end, bool keysOnly, Func<ReadOnlySpan<byte>, ReadOnlySpan<byte>, bool> visit)
    {
        if (node.Prefix.Length > 0 && InRange(node.Prefix, start, end) &&
            Read(node, "k", keysOnly, out var own) == ReadStatus.Found && own.Key.AsSpan().SequenceEqual(node.Prefix) &&
            !visit(own.Key, own.Value))
        {
            return false;
        }

        // A child the marker records that is gone was deleted with its keys: an error, never a shorter scan (ADR 0013).
        var present = PresentChildren(node);
        node.ThrowIfChildLost(present, b => ChildMayHold([.. node.Prefix, (byte)b], start, end));
        for (var b = 0; b < 256; b++)
        {
            if (present[b] && ChildMayHold([.. node.Prefix, (byte)b], start, end) && !Walk(node.Child((byte)b), start, end, keysOnly, visit))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Throws when a child directory that <paramref name="node"/>'s marker records is gone (nothing for a leaf).</summary>
    /// <exception cref="InvalidDataException">A recorded child directory is missing.</exception>
    public static void ThrowIfChildLost(LayoutNode node)
    {
        if (node.IsSplit && node.RecordedChildren is not null)
        {
            node.ThrowIfChildLost(PresentChildren(node), _ => true);
        }
    }

    private static bool[] PresentChildren(LayoutNode node)
    {
        var present = new bool[256];
        foreach (var directory in Entries(node.Path, directories: true))
        {
            if (KeyNames.TryParseChild(directory, out var b))
            {
                present[b] = true;
            }
        }

        return present;
    }

    private static bool WalkLeaf(LayoutNode node, byte[] start, byte[] end, bool keysOnly, Func<ReadOnlySpan<byte>, ReadOnlySpan<byte>, bool> visit)
    {
        var rest = new List<byte>();
        var found = new List<(byte[] Key, string Name, byte[]? Value)>();
        foreach (var name in Entries(node.Path, directories: false))
        {
            switch (KeyNames.Classify(name, rest))
            {
                case NameKind.Plain:
                    byte[] key = [.. node.Prefix, .. rest];
                    if (InRange(key, start, end))
                    {
                        found.Add((key, name, null));
                    }

                    break;
                case NameKind.Hashed:
                    if (Read(node, name, keysOnly, out var pair) == ReadStatus.Found && InRange(pair.Key, start, end))
                    {
                        found.Add((pair.Key, name, pair.Value));
                    }

                    break;
            }
        }

        found.Sort((x, y) => x.Key.AsSpan().SequenceCompareTo(y.Key));
        foreach (var (key, name, value) in found)
        {
            if (value is not null || keysOnly)
            {
                if (!visit(key, value ?? []))
                {
                    return false;
                }
            }
            else if (Read(node, name, keysOnly: false, out var pair) == ReadStatus.Found && pair.Key.AsSpan().SequenceEqual(key) &&
                !visit(key, pair.Value))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>As <c>DirectoryInfo.EnumerateFiles()</c> lists: hidden names included, an unreadable directory an error.</summary>
    private static readonly EnumerationOptions Everything = new() { AttributesToSkip = 0, IgnoreInaccessible = false };

    /// <summary>The names of the files (or directories) in <paramref name="path"/>; none when it does not exist.</summary>
    public static List<string> Entries(string path, bool directories)
    {
        DirectoriesListed++;
        try
        {
            // Names straight from the directory entries: a FileInfo per entry cost an lstat each (two per file a split moved).
            var names = new FileSystemEnumerable<string>(path, (ref FileSystemEntry entry) => entry.FileName.ToString(), Everything)
            {
                ShouldIncludePredicate = (ref FileSystemEntry entry) => entry.IsDirectory == directories,
            };
            return [.. names];
        }
        catch (DirectoryNotFoundException)
        {
            return [];
        }
    }

    /// <summary>Reads the key file <paramref name="name"/> of <paramref name="node"/> into new arrays (the value stays empty when <paramref name="keysOnly"/>).</summary>
    /// <exception cref="InvalidDataException">The file is damaged and its value was asked for (a keys-only read skips it, as range deletes need).</exception>
    internal static ReadStatus Read(LayoutNode node, string name, bool keysOnly, out (byte[] Key, byte[] Value) pair)
    {
        FilesRead++;
        var nameBytes = Encoding.ASCII.GetBytes(name);
        var path = new byte[node.PathBytes.Length + nameBytes.Length + 2];
        node.FilePath(nameBytes, path);
        var status = KeyFile.Read(path, !keysOnly, out var key, out var value);
        if (status == ReadStatus.Damaged && !keysOnly)
        {
            throw Damaged(node, name);
        }

        pair = status == ReadStatus.Found ? (key.ToArray(), keysOnly ? [] : value.ToArray()) : ([], []);
        return status;
    }

    // A damaged key file ends a scan of values with an error (the store turns it into a Corrupt StoreFormatException), never a key missing from it (ADR 0014).
    private static InvalidDataException Damaged(LayoutNode node, string name)
    {
        var rest = new List<byte>();
        var which = KeyNames.Classify(name, rest) == NameKind.Plain ? $"key {Transfer.KeyText.Describe([.. node.Prefix, .. rest])}" : "a long key";
        return new InvalidDataException(
            $"the pair stored for {which} is damaged: its key file '{System.IO.Path.Combine(node.Path, name)}' is short, has a wrong header or fails its checksum");
    }

    public static bool InRange(ReadOnlySpan<byte> key, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) =>
        key.SequenceCompareTo(start) >= 0 && (end.IsEmpty || key.SequenceCompareTo(end) < 0);

    private static bool ChildMayHold(byte[] prefix, byte[] start, byte[] end)
    {
        if (end.Length > 0 && prefix.AsSpan().SequenceCompareTo(end) >= 0)
        {
            return false;
        }

        return start.Length == 0 || !KeyOrder.TryGetPrefixEnd(prefix, out var after) || after.AsSpan().SequenceCompareTo(start) > 0;
    }
}
