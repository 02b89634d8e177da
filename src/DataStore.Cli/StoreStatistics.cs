using System.Globalization;

namespace DataStore.Cli;

/// <summary>Counts keys and sizes a store's directory, for <c>count</c> and <c>info</c>.</summary>
internal static class StoreStatistics
{
    /// <summary>How many keys start with <paramref name="prefix"/> (a keys-only scan; every key: the whole-store read, which lets writers in).</summary>
    public static long CountKeys(IKeyValueStore store, ReadOnlySpan<byte> prefix)
    {
        using var cursor = prefix.IsEmpty ? DataStore.Transfer.WholeStore.Read(store, keysOnly: true) : store.ScanPrefix(prefix, keysOnly: true);
        long count = 0;
        while (cursor.MoveNext())
        {
            count++;
        }

        return count;
    }

    /// <summary>The total length of the files under <paramref name="directory"/>; files that vanish meanwhile (an engine compacting) count as 0.</summary>
    public static long SizeOnDisk(string directory)
    {
        long total = 0;
        var options = new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true };
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

    /// <summary>A size such as "1.5 MiB".</summary>
    public static string Readable(long bytes)
    {
        string[] units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        double size = bytes;
        var unit = 0;
        while (size >= 1024 && unit < units.Length - 1)
        {
            size /= 1024;
            unit++;
        }

        return unit == 0 ? $"{bytes} bytes" : string.Create(CultureInfo.InvariantCulture, $"{size:0.#} {units[unit]}");
    }
}
