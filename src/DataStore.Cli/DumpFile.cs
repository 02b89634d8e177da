namespace DataStore.Cli;

/// <summary>Writes a new dump file whole or not at all: a hidden temporary file beside it, synced, renamed into place, then its directory synced.</summary>
internal static class DumpFile
{
    /// <summary>Runs <paramref name="write"/> on a new file that becomes <paramref name="path"/> only when it succeeds; on failure or cancellation nothing is left.</summary>
    public static async Task<T> CreateAsync<T>(string path, Func<Stream, Task<T>> write)
    {
        var full = Path.GetFullPath(path);
        var temporary = Path.Combine(Path.GetDirectoryName(full)!, $".{Path.GetFileName(full)}.{Environment.ProcessId}.partial");
        try
        {
            T result;
            var stream = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16, FileOptions.SequentialScan);
            await using (stream.ConfigureAwait(false))
            {
                result = await write(stream).ConfigureAwait(false);
                stream.Flush(flushToDisk: true);
            }

            File.Move(temporary, full, overwrite: false);
            SyncedDirectory.Sync(Path.GetDirectoryName(full)!); // the new name survives a power loss too
            return result;
        }
        catch (DirectoryNotFoundException)
        {
            throw CliException.Usage($"the directory of '{full}' does not exist.");
        }
        finally
        {
            if (File.Exists(temporary))
            {
                File.Delete(temporary);
            }
        }
    }
}
