namespace DataStore.Platform;

/// <summary>
/// Creates or replaces a small file so that a power loss leaves either the old file or the whole new one: the
/// contents go to a staging name and are fsynced, the staging file is renamed into place, and the directory is
/// fsynced so the rename itself survives.
/// </summary>
internal static class SyncedFile
{
    /// <summary>Writes <paramref name="contents"/> to <paramref name="path"/> and fsyncs the data before returning.</summary>
    public static void WriteData(string path, ReadOnlySpan<byte> contents)
    {
        using var stream = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None);
        stream.Write(contents);
        stream.Flush(flushToDisk: true);
    }

    /// <summary>Replaces <paramref name="path"/> (or creates it) with <paramref name="contents"/>, power-safe.</summary>
    public static void Replace(string path, ReadOnlySpan<byte> contents)
    {
        var staging = $"{path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
        try
        {
            WriteData(staging, contents);
            File.Move(staging, path, overwrite: true);
        }
        finally
        {
            File.Delete(staging);
        }

        DirectorySync.Sync(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!);
    }
}
