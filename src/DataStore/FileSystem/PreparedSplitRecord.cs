using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// The record of a split being prepared outside the write lock (<see cref="SplitPreparation"/>): <c>split.prepare</c>
/// in the store directory, holding the preparation's token and the leaf's prefix. While it exists the leaf may hold
/// prepared child directories (before the marker) or its old names (after it), and Durable writes sync the file
/// system. <see cref="Recover"/> undoes or finishes what a stopped preparation left; call it holding the write lock.
/// </summary>
internal static class PreparedSplitRecord
{
    /// <summary>The record's file name in the store directory.</summary>
    public const string FileName = "split.prepare";

    private const int TokenLength = 16;

    public static string PathIn(string root) => Path.Combine(root, FileName);

    public static bool Exists(string root) => File.Exists(PathIn(root));

    /// <summary>Writes the record (not yet synced: <see cref="Sync"/> does, before any child directory is made).</summary>
    public static void Write(string root, Guid token, byte[] prefix)
    {
        var content = new byte[TokenLength + prefix.Length];
        token.TryWriteBytes(content);
        prefix.CopyTo(content, TokenLength);
        File.WriteAllBytes(PathIn(root), content);
    }

    /// <summary>Flushes the record and its directory entry to disk.</summary>
    public static void Sync(string root)
    {
        using (var file = new FileStream(PathIn(root), FileMode.Open, FileAccess.ReadWrite))
        {
            file.Flush(flushToDisk: true);
        }

        DirectorySync.Sync(root);
    }

    /// <summary>Removes the record; returns true.</summary>
    public static bool Delete(string root)
    {
        File.Delete(PathIn(root));
        return true;
    }

    /// <summary>True when the record is there and carries <paramref name="token"/>.</summary>
    public static bool IsOwnedBy(string root, Guid token) => Read(root) is { } record && record.Token == token;

    /// <summary>The record's token and prefix, or null when there is none (or it is shorter than a token).</summary>
    public static (Guid Token, byte[] Prefix)? Read(string root)
    {
        byte[] content;
        try
        {
            content = File.ReadAllBytes(PathIn(root));
        }
        catch (FileNotFoundException)
        {
            return null;
        }

        return content.Length < TokenLength ? null : (new Guid(content.AsSpan(0, TokenLength)), content[TokenLength..]);
    }

    /// <summary>
    /// Finishes or undoes a stopped preparation: with the leaf's marker on disk the split was published, so only the
    /// leaf's old names go (never linked back: a key deleted since would return); without it the prepared children go
    /// (the leaf is whole). Then the record goes. Call holding the write lock; a Relaxed store passes its
    /// <paramref name="unsynced"/> directories, synced before the leaf (ADR 0008, *Relaxed ordering*).
    /// </summary>
    public static void Recover(string root, Layout layout, UnsyncedDirectories? unsynced = null)
    {
        if (!Exists(root))
        {
            return;
        }

        // A record too short to name its leaf was cut by a power loss before it was synced: no child was made yet.
        if (Read(root) is { } record)
        {
            var path = layout.NodeOf(record.Prefix).Path;
            if (File.Exists(Path.Combine(path, KeyNames.SplitMarker)))
            {
                RemoveOldNames(path);
            }
            else
            {
                RemoveChildren(path);
            }

            // Durable before the record goes: a later sync of the store directory (the next record) could otherwise keep
            // the record's removal and lose this, leaving children in a leaf (or old names in a split) nothing names.
            // The Relaxed writes before it first: the leaf's sync makes its own Puts durable.
            // A leaf a power loss took (Relaxed Puts made it and no sync made its entry durable) took its children with it.
            unsynced?.Sync(root);
            TreeWriter.SyncDirectory(path);
        }

        File.Delete(PathIn(root));
    }

    /// <summary>Removes the child directories of a leaf that is not split (what a stopped preparation made).</summary>
    public static void RemoveChildren(string leaf)
    {
        foreach (var directory in TreeWalker.Entries(leaf, directories: true))
        {
            if (KeyNames.TryParseChild(directory, out _))
            {
                Directory.Delete(Path.Combine(leaf, directory), recursive: true);
            }
        }
    }

    /// <summary>Removes a split directory's key files other than its own key's (the names a published split left).</summary>
    public static void RemoveOldNames(string split)
    {
        var rest = new List<byte>();
        foreach (var name in TreeWalker.Entries(split, directories: false))
        {
            if (IsOldName(name, rest))
            {
                File.Delete(Path.Combine(split, name));
            }
        }
    }

    /// <summary>True for a name a split directory holds only while a published split's old names are being removed.</summary>
    public static bool IsOldName(string name, List<byte> rest) =>
        KeyNames.Classify(name, rest) switch
        {
            NameKind.Plain => rest.Count > 0,
            NameKind.Hashed => true,
            _ => false,
        };
}
