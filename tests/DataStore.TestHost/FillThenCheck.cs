using System.Runtime.InteropServices;

namespace DataStore.TestHost;

/// <summary>
/// <c>fill-then-check</c>: <c>fill-until-fault</c>, then, once the fault is gone, <c>check-fill</c> on a fresh open of
/// the store in the same process, as an app would carry on. After the fault it prints <c>FAULTED</c> and waits for a
/// line on standard input (the test has made room by then); then it raises its own file size limit to the hard limit
/// (a limit set as <c>prlimit --fsize=N:unlimited</c>). Exits as <c>check-fill</c> does, or 1 when no write failed.
/// </summary>
internal static class FillThenCheck
{
    private const int RlimitFileSize = 1; // Linux
    private const ulong Unlimited = ulong.MaxValue;

    public static int Run(DataStoreOptions options, int steps)
    {
        if (ResourceFaultCommands.FillUntilFault(options, steps, out var acknowledged) != 3)
        {
            return 1;
        }

        Console.WriteLine("FAULTED");
        Console.ReadLine();
        var limit = new ResourceFaultCommands.Limit { Current = Unlimited, Maximum = Unlimited };
        if (ResourceFaultCommands.SetLimit(RlimitFileSize, ref limit) != 0)
        {
            Console.WriteLine($"NOLIMIT errno {Marshal.GetLastPInvokeError()}");
            return 1;
        }

        using var store = KeyValueStore.Open(options);
        return ResourceFaultCommands.CheckFill(store, acknowledged);
    }
}
