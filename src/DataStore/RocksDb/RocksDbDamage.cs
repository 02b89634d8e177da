namespace DataStore.RocksDb;

/// <summary>Names the files a RocksDB corruption report is about, when RocksDB's own message does not.</summary>
internal static class RocksDbDamage
{
    /// <summary>
    /// Empty when <paramref name="text"/> names a file already; otherwise " (write-ahead log: 000004.log, ...)": the
    /// WAL files left in the directory, which are what an open replays and what a damaged record at open sits in.
    /// </summary>
    public static string FilesNamed(string directory, string text)
    {
        if (text.Contains(".log", StringComparison.Ordinal) || text.Contains(".sst", StringComparison.Ordinal) ||
            text.Contains("MANIFEST", StringComparison.Ordinal))
        {
            return "";
        }

        string[] logs;
        try
        {
            logs = [.. Directory.EnumerateFiles(directory, "*.log").Select(Path.GetFileName).OfType<string>().Order(StringComparer.Ordinal)];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "";
        }

        return logs.Length == 0 ? "" : $" (write-ahead log: {string.Join(", ", logs.Select(log => Path.Combine(directory, log)))})";
    }
}
