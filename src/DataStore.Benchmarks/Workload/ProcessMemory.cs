namespace DataStore.Benchmarks.Workload;

/// <summary>
/// One reading of a process's memory from <c>/proc/PID/status</c> (Linux), in KiB: <c>RssAnon</c> (private memory: heaps,
/// caches, memtables), <c>RssFile</c> (resident file pages it maps, which the OS can drop) and <c>VmHWM</c> (the peak of
/// the two together so far).
/// </summary>
public readonly record struct ProcessMemory(long RssAnonKiB, long RssFileKiB, long PeakRssKiB)
{
    /// <summary>Reads process <paramref name="processId"/>'s memory, or null where there is no <c>/proc</c> or the process has gone.</summary>
    public static ProcessMemory? Read(int processId)
    {
        string[] lines;
        try
        {
            lines = File.ReadAllLines($"/proc/{processId}/status");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return new ProcessMemory(Field(lines, "RssAnon:"), Field(lines, "RssFile:"), Field(lines, "VmHWM:"));
    }

    private static long Field(string[] lines, string name) =>
        lines.FirstOrDefault(l => l.StartsWith(name, StringComparison.Ordinal)) is { } line
            ? long.Parse(line[name.Length..].Replace("kB", "", StringComparison.Ordinal).Trim(), System.Globalization.CultureInfo.InvariantCulture)
            : 0;
}
