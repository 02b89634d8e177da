using DataStore;
using DataStore.Backends;

namespace DataStore.TestHost;

/// <summary>
/// The <c>check-integrity</c> command: runs the backend's own integrity check in this (child) process, because an
/// engine may crash on a damaged file. Prints <c>PROBLEM text</c> per problem then <c>DAMAGED n</c> (exit 1), or
/// <c>HEALTHY</c> (exit 0); a store that will not open ends as <c>ERROR ...</c> (exit 3) in Program.
/// </summary>
internal static class IntegrityCheck
{
    public static int Run(IKeyValueStore store)
    {
        var maintenance = store as IBackendMaintenance
            ?? throw new InvalidOperationException($"the {store.Backend} store at '{store.Path}' has no engine integrity check to run.");
        var problems = maintenance.CheckIntegrity(CancellationToken.None);
        foreach (var problem in problems)
        {
            Console.WriteLine($"PROBLEM {problem}");
        }

        Console.WriteLine(problems.Count == 0 ? "HEALTHY" : $"DAMAGED {problems.Count}");
        return problems.Count == 0 ? 0 : 1;
    }
}
