namespace DataStore.FileSystem;

/// <summary>
/// The marker file of a split directory (<see cref="KeyNames.SplitMarker"/>): besides marking the split, it records
/// which children held keys when the split completed, one bit per next byte (32 bytes), so a child directory deleted
/// later (by a cleaning tool, a partial copy) is an error naming it, never keys gone missing (ADR 0013). A marker
/// written before this record existed is empty, as is one whose content a power loss took: its children are not checked.
/// </summary>
/// <remarks>
/// A recorded child is durable before its marker is written: a prepared split's publish syncs every child it made
/// first; an old-way split keeps its <c>split.pending</c> record until a sync after the marker, and its redo writes the
/// marker again. A child made later by a Put of a new next byte is not recorded.
/// </remarks>
internal static class SplitMarker
{
    private const int Length = 32;

    /// <summary>Writes the marker of <paramref name="directory"/>, recording the children for which <paramref name="holdsKeys"/> is true.</summary>
    public static void Write(string directory, Func<int, bool> holdsKeys)
    {
        var children = new byte[Length];
        for (var b = 0; b < 256; b++)
        {
            if (holdsKeys(b))
            {
                children[b >> 3] |= (byte)(1 << (b & 7));
            }
        }

        File.WriteAllBytes(Path.Combine(directory, KeyNames.SplitMarker), children);
    }

    /// <summary>The children <paramref name="directory"/>'s marker records, or null when it records none (no marker, or an empty one).</summary>
    public static byte[]? RecordedChildren(string directory)
    {
        try
        {
            var content = File.ReadAllBytes(Path.Combine(directory, KeyNames.SplitMarker));
            return content.Length == Length ? content : null;
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }

    /// <summary>True when <paramref name="children"/> (from <see cref="RecordedChildren"/>) records child <paramref name="b"/>.</summary>
    public static bool Records(byte[]? children, int b) => children is not null && (children[b >> 3] & (1 << (b & 7))) != 0;

    /// <summary>The first child that <paramref name="children"/> records and <paramref name="present"/> lacks, for which <paramref name="checkedChild"/> is true; -1 when none.</summary>
    public static int FirstLost(byte[]? children, bool[] present, Func<int, bool> checkedChild)
    {
        for (var b = 0; children is not null && b < 256; b++)
        {
            if (Records(children, b) && !present[b] && checkedChild(b))
            {
                return b;
            }
        }

        return -1;
    }

    /// <summary>The error for a recorded child directory that is gone (the store turns it into a Corrupt <see cref="StoreFormatException"/>).</summary>
    public static InvalidDataException Lost(string path) => new(
        $"the key directory '{path}' is missing: it held keys when its parent directory was split (the parent's '{KeyNames.SplitMarker}' file records it), " +
        "so it was deleted or lost, and its keys are not reported as absent. Restore the store from a backup; or, to accept the loss of its keys, create the directory again, empty");
}
