using System.Text;
using DataStore.Platform;

namespace DataStore.FileSystem;

// Puts: a single Put's key file, written before the write lock and renamed into place under it, and a batch's key
// files, written in place. On Linux both go through the leaf's open directory handle (PosixWrites): one renameat for a
// single Put, openat/pwrite/close for a batch's key, where .NET's file APIs make several calls more per file.
internal sealed partial class TreeWriter
{
    /// <summary>
    /// Writes and flushes a single Put's key file in <c>tmp/</c>; call without the store's lock, so no other writer or
    /// reader waits for this disk I/O. <see cref="Publish"/> then renames it into place under the lock.
    /// </summary>
    public string WriteTemporary(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var temporary = NewTemporary();
        try
        {
            KeyFile.Write(temporary, key, value, flush: true);
        }
        catch
        {
            TemporaryFiles.Remove(temporary);
            throw;
        }

        return temporary;
    }

    /// <summary>Renames a key file <see cref="WriteTemporary"/> wrote over the key's file; returns the directory whose entry changed.</summary>
    /// <remarks>A lock-free reader sees the old file or the new one.</remarks>
    public string Publish(ReadOnlySpan<byte> key, string temporary)
    {
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength + 1];
        var node = Target(key, name, out var length);
        if (!RenamedAt(temporary, node, name[..(length + 1)]))
        {
            MoveInto(temporary, node.FilePathString(name[..length]), node);
        }

        PutTrace.Mark(PutStep.Rename);
        if (Unsynced is { } unsynced)
        {
            unsynced.Add(node.Path);
            foreach (var parent in _newParents)
            {
                unsynced.Add(parent);
            }
        }

        return node.Path;
    }

    /// <summary>Writes one key of a batch in place; returns the directory whose entry changed.</summary>
    /// <remarks>
    /// The batch's change counter is odd, so readers retry rather than read a file being written, and a crash is
    /// repaired from its journal.
    /// </remarks>
    public string Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool flush)
    {
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength + 1];
        var node = Target(key, name, out var length);
        if (PosixWrites.Enabled && node.Directory is { } directory && KeyFile.TryWriteAt(directory, name[..(length + 1)], key, value, flush))
        {
            return node.Path;
        }

        var target = node.FilePathString(name[..length]);
        try
        {
            KeyFile.Write(target, key, value, flush, inPlace: true);
        }
        catch (DirectoryNotFoundException)
        {
            EnsureLeaf(node);
            KeyFile.Write(target, key, value, flush, inPlace: true);
        }

        return node.Path;
    }

    /// <summary>
    /// The leaf of <paramref name="key"/> (splitting a full leaf first), with the key's file name written into
    /// <paramref name="name"/> (<paramref name="length"/> bytes, then a NUL) and its pre-image kept for open scans.
    /// </summary>
    private LayoutNode Target(ReadOnlySpan<byte> key, Span<byte> name, out int length)
    {
        var node = LeafFor(key, out var depth);
        PutTrace.Mark(PutStep.Split);
        var rest = key[depth..];
        var slot = 0;
        if (KeyNames.IsHashed(rest))
        {
            KeyLookup.FindIn(node, key, rest, KeyLookup.Mode.KeyOnly, out _, out slot);
        }

        length = KeyNames.Write(rest, slot, name);
        name[length] = 0;
        if (_preImages.Active)
        {
            _preImages.Keep(node.FilePathString(name[..length]), key);
        }

        PutTrace.Mark(PutStep.PreImage);
        return node;
    }

    /// <summary>Renames <paramref name="temporary"/> to <paramref name="nameZ"/> in <paramref name="node"/>'s open directory (Linux); false when it could not (then the caller renames by path).</summary>
    private static bool RenamedAt(string temporary, LayoutNode node, ReadOnlySpan<byte> nameZ)
    {
        if (!PosixWrites.Enabled || node.Directory is not { } directory)
        {
            return false;
        }

        var added = false;
        directory.DangerousAddRef(ref added);
        try
        {
            return PosixWrites.RenameAt(PosixWrites.CurrentDirectory, Encoding.UTF8.GetBytes(temporary + "\0"), (int)directory.DangerousGetHandle(), nameZ);
        }
        finally
        {
            if (added)
            {
                directory.DangerousRelease();
            }
        }
    }

    private void MoveInto(string temporary, string target, LayoutNode node)
    {
        try
        {
            File.Move(temporary, target, overwrite: true);
        }
        catch (DirectoryNotFoundException)
        {
            EnsureLeaf(node);
            File.Move(temporary, target, overwrite: true);
        }
    }

    /// <summary>Creates a leaf's missing directory, unless its parent's marker records it: then it was deleted with its keys (ADR 0013).</summary>
    private void EnsureLeaf(LayoutNode node)
    {
        node.ThrowIfLost();
        EnsureDirectory(node.Path);
    }
}
