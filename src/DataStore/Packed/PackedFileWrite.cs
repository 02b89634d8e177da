using DataStore.Platform;

namespace DataStore.Packed;

/// <summary>Writes a packed file power-safe: to a staging name, synced, renamed over <c>path</c>, and the directory synced.</summary>
internal static class PackedFileWrite
{
    /// <summary>A staging name beside <paramref name="path"/> that no other writer uses.</summary>
    public static string StagingName(string path) => $"{path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";

    /// <summary>Fills a new packed file through <paramref name="fill"/> and renames it over <paramref name="path"/>; returns the pairs written.</summary>
    public static long Replace(string path, Action<PackedWriter> fill)
    {
        var staging = StagingName(path);
        try
        {
            long pairs;
            using (var writer = new PackedWriter(staging))
            {
                fill(writer);
                writer.Finish();
                pairs = writer.Pairs;
            }

            Commit(staging, path);
            return pairs;
        }
        finally
        {
            File.Delete(staging);
        }
    }

    /// <summary>Renames the finished, synced <paramref name="staging"/> file over <paramref name="path"/> and syncs the directory.</summary>
    public static void Commit(string staging, string path)
    {
        File.Move(staging, path, overwrite: true);
        DirectorySync.Sync(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!);
    }
}
