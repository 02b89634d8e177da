namespace DataStore.Backup;

/// <summary>The size of a store's files, for backup results and compaction reports.</summary>
internal static class DirectorySize
{
    /// <summary>The total length of every file under <paramref name="directory"/> (0 when it does not exist).</summary>
    /// <remarks>Files that vanish while they are counted (a writer's temporary file) count as 0.</remarks>
    public static long Of(string directory)
    {
        if (!Directory.Exists(directory))
        {
            return 0;
        }

        long total = 0;
        var options = new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = FileAttributes.ReparsePoint };
        foreach (var file in new DirectoryInfo(directory).EnumerateFiles("*", options))
        {
            try
            {
                total += file.Length;
            }
            catch (FileNotFoundException)
            {
            }
        }

        return total;
    }
}
