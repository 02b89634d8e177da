namespace DataStore.TestHost;

/// <summary><c>verify-count</c>: prints <c>COUNT n</c> of the keys under a prefix, then runs the backend's integrity check (exit 0 when healthy).</summary>
internal static class VerifiedCount
{
    public static int Run(IKeyValueStore store, string prefix)
    {
        Console.WriteLine($"COUNT {store.EnumerateKeys(System.Text.Encoding.UTF8.GetBytes(prefix)).Count()}");
        return IntegrityCheck.Run(store);
    }
}
