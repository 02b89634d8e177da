using System.Diagnostics;
using DataStore.Lmdb.Files;

namespace DataStore.TestHost;

/// <summary>Opens an LMDB 0.9 store and kills this process (SIGKILL) when its conversion reaches the named step.</summary>
internal static class LmdbConversionKill
{
    public static int Run(DataStoreOptions options, string step)
    {
        LmdbConversion.StepReached = reached =>
        {
            if (reached == step)
            {
                Console.WriteLine($"KILL {step}");
                Console.Out.Flush();
                Process.GetCurrentProcess().Kill();
                Thread.Sleep(Timeout.Infinite);
            }
        };
        using var store = KeyValueStore.Open(options);
        Console.WriteLine("CONVERTED");
        return 0;
    }
}
