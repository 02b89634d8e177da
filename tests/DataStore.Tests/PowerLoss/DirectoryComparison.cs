namespace DataStore.Tests.PowerLoss;

/// <summary>Compares two directory trees file by file (names and bytes).</summary>
public static class DirectoryComparison
{
    /// <summary>Every difference between <paramref name="actual"/> and <paramref name="replayed"/>, skipping relative paths <paramref name="skip"/> accepts.</summary>
    public static List<string> Differences(string actual, string replayed, Func<string, bool> skip)
    {
        var differences = new List<string>();
        var real = Files(actual);
        var model = Files(replayed);
        foreach (var path in real.Union(model).Where(p => !skip(p)).Order(StringComparer.Ordinal))
        {
            if (!model.Contains(path))
            {
                differences.Add($"{path}: on disk, not in the replayed log");
            }
            else if (!real.Contains(path))
            {
                differences.Add($"{path}: in the replayed log, not on disk");
            }
            else if (!File.ReadAllBytes(Path.Combine(actual, path)).AsSpan().SequenceEqual(File.ReadAllBytes(Path.Combine(replayed, path))))
            {
                differences.Add($"{path}: {new FileInfo(Path.Combine(actual, path)).Length} bytes on disk differ from the replayed {new FileInfo(Path.Combine(replayed, path)).Length}");
            }
        }

        return differences;
    }

    private static HashSet<string> Files(string root) =>
        Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(root, f)).ToHashSet(StringComparer.Ordinal);
}
