namespace DataStore.TestHost;

/// <summary>
/// <c>read-only-steps</c>: the read-only store case in one process, each step on a fresh open of the store. Fills 40
/// keys under <c>ro</c> and prints <c>FILLED</c>; at a line on standard input (the store is read-only now) reads and
/// writes it (<c>READ</c>, <c>WRITE</c>); at the next (writable again) writes, counts and verifies it (<c>AGAIN</c>,
/// <c>RECOUNT</c>, <c>VERIFY</c>). Each step prints <c>NAME OK detail</c> or <c>NAME ERROR Cause Type: message</c>.
/// </summary>
internal static class ReadOnlySteps
{
    public static int Run(DataStoreOptions options)
    {
        if (!Step(options, "FILL", store => Commands.Fill(store, "ro", 40, 100) == 0 ? "40" : null))
        {
            return 1;
        }

        Console.WriteLine("FILLED");
        Console.ReadLine();
        Step(options, "READ", Count);
        Step(options, "WRITE", Put);
        Console.WriteLine("TRIED");
        Console.ReadLine();
        var healthy = Step(options, "AGAIN", Put) && Step(options, "RECOUNT", Count) &&
            Step(options, "VERIFY", store => IntegrityCheck.Run(store) == 0 ? "clean" : null);
        return healthy ? 0 : 1;
    }

    private static string Count(IKeyValueStore store) => $"COUNT {store.EnumerateKeys("ro"u8.ToArray()).Count()}";

    private static string Put(IKeyValueStore store)
    {
        store.Put("ro-late"u8, "x"u8);
        return "PUT";
    }

    // False when the step failed (a DataStoreException, printed) or its check did (null).
    private static bool Step(DataStoreOptions options, string name, Func<IKeyValueStore, string?> step)
    {
        try
        {
            using var store = KeyValueStore.Open(options);
            var detail = step(store);
            Console.WriteLine(detail is null ? $"{name} FAILED" : $"{name} OK {detail}");
            return detail is not null;
        }
        catch (DataStoreException e)
        {
            Console.WriteLine($"{name} ERROR {e.Cause} {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}");
            return false;
        }
    }
}
