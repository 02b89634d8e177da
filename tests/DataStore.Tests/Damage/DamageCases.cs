namespace DataStore.Tests.Damage;

/// <summary>Which cases the damage matrix runs on a store, and the copies it damages.</summary>
public static class DamageCases
{
    private const int FilesPerDirectory = 4;

    /// <summary>
    /// Every case for every file of <paramref name="store"/> (a subdirectory of many files, such as FileSystem's key files,
    /// gives its first and last file and two drawn at random), ordered to take one case from each file in turn, largest
    /// file first, each file's cases in a random order; the first <paramref name="count"/> of them.
    /// </summary>
    public static List<DamageCase> Pick(string store, Random random, int randomPerFile, int count)
    {
        var files = System.IO.Directory.EnumerateFiles(store, "*", SearchOption.AllDirectories)
            .GroupBy(Path.GetDirectoryName)
            .SelectMany(group => group.Key == Path.TrimEndingDirectorySeparator(store) ? group : Sample(group.Order(StringComparer.Ordinal).ToList(), random))
            .Select(file => new FileInfo(file))
            .OrderByDescending(file => file.Length)
            .ThenBy(file => file.FullName, StringComparer.Ordinal)
            .Select(file => DamageCase.For(Path.GetRelativePath(store, file.FullName), file.Length, random, randomPerFile).OrderBy(_ => random.Next()).ToList())
            .Where(cases => cases.Count > 0)
            .ToList();
        var picked = new List<DamageCase>();
        for (var round = 0; picked.Count < count && files.Any(cases => round < cases.Count); round++)
        {
            picked.AddRange(files.Where(cases => round < cases.Count).Select(cases => cases[round]).Take(count - picked.Count));
        }

        return picked;
    }

    /// <summary>Copies the store at <paramref name="source"/> to <paramref name="destination"/>, every file and directory.</summary>
    public static void Copy(string source, string destination)
    {
        foreach (var directory in System.IO.Directory.EnumerateDirectories(source, "*", SearchOption.AllDirectories).Prepend(source))
        {
            System.IO.Directory.CreateDirectory(Path.Combine(destination, Path.GetRelativePath(source, directory)));
        }

        foreach (var file in System.IO.Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories))
        {
            File.Copy(file, Path.Combine(destination, Path.GetRelativePath(source, file)));
        }
    }

    private static IEnumerable<string> Sample(List<string> files, Random random) => files.Count <= FilesPerDirectory * 2
        ? files
        : files.Skip(1).SkipLast(1).OrderBy(_ => random.Next()).Take(FilesPerDirectory - 2).Prepend(files[0]).Append(files[^1]);
}
