namespace DataStore.Cli;

/// <summary>Checks that a command's output path is new, so export, import, migrate and backup never overwrite anything.</summary>
internal static class Destination
{
    /// <summary>Throws a usage error unless <paramref name="path"/> is absent or an empty directory.</summary>
    /// <exception cref="CliException">Something is already there.</exception>
    public static void RequireNew(string path, string what)
    {
        var full = Path.GetFullPath(path);
        if (File.Exists(full) || (Directory.Exists(full) && Directory.EnumerateFileSystemEntries(full).Any()))
        {
            throw CliException.Usage($"{what} '{full}' already exists; choose a new path (nothing is overwritten).");
        }
    }
}
