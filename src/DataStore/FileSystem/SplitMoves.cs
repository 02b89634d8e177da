using System.Text;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// One file move of a split through the leaf's and the child's open directory handles (Linux): one <c>renameat</c>
/// (or, when a redo finds the child's file already there, one <c>unlinkat</c> of the leaf's copy), where
/// <c>File.Move</c> made two <c>lstat</c>s and resolved both whole paths, and a directory check ran per file. Fewer
/// calls under the write lock, which a split holds while it moves its files.
/// </summary>
internal static class SplitMoves
{
    /// <summary>Moves <paramref name="entry"/> of <paramref name="leaf"/> to <paramref name="nameZ"/> in <paramref name="child"/>; false when it could not (the caller moves by path).</summary>
    public static bool MovedAt(LayoutNode leaf, string entry, LayoutNode child, ReadOnlySpan<byte> nameZ, bool redo)
    {
        if (!PosixWrites.Enabled || entry.Length > KeyNames.MaxNameLength || leaf.Directory is not { } from || child.Directory is not { } to)
        {
            return false;
        }

        Span<byte> entryZ = stackalloc byte[KeyNames.MaxNameLength + 1];
        var length = Encoding.ASCII.GetBytes(entry, entryZ);
        entryZ[length] = 0;
        entryZ = entryZ[..(length + 1)];
        bool addedFrom = false, addedTo = false;
        from.DangerousAddRef(ref addedFrom);
        to.DangerousAddRef(ref addedTo);
        try
        {
            var fromFd = (int)from.DangerousGetHandle();
            var toFd = (int)to.DangerousGetHandle();
            if (redo && PosixFile.ExistsAt(toFd, nameZ))
            {
                // Written again after the split completed: the child's file is the newer one (LeafSplitter).
                PosixWrites.UnlinkAt(fromFd, entryZ);
                return true;
            }

            return PosixWrites.RenameAt(fromFd, entryZ, toFd, nameZ);
        }
        finally
        {
            if (addedTo)
            {
                to.DangerousRelease();
            }

            if (addedFrom)
            {
                from.DangerousRelease();
            }
        }
    }
}
