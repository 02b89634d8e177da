using System.Globalization;

namespace DataStore.Cli;

/// <summary>Sizes on disk (a store's directory, for <c>info</c> and <c>compact</c>) and how to print them.</summary>
internal static class StoreStatistics
{
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
