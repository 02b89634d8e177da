namespace DataStore.Benchmarks;

/// <summary>
/// Lets the suites run from any directory: BenchmarkDotNet looks for this project's file below the current
/// directory's solution folder, so the run moves into the repository the program was built in, and keeps its
/// results in the directory it was started from.
/// </summary>
public static class ProjectDirectory
{
    /// <summary>Moves into the repository and returns <paramref name="args"/> with an <c>--artifacts</c> path in the starting directory unless one was given.</summary>
    public static string[] Enter(string[] args)
    {
        var start = Directory.GetCurrentDirectory();
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "DataStore.sln")))
            {
                Directory.SetCurrentDirectory(directory.FullName);
                var given = Array.FindIndex(args, a => a is "--artifacts" or "-a");
                if (given < 0)
                {
                    return [.. args, "--artifacts", Path.Combine(start, "BenchmarkDotNet.Artifacts")];
                }

                var moved = args.ToArray();
                if (given + 1 < moved.Length)
                {
                    moved[given + 1] = Path.GetFullPath(moved[given + 1], start);
                }

                return moved;
            }
        }

        return args; // built outside the repository: BenchmarkDotNet's own search applies
    }
}
