namespace DataStore.TestHost;

/// <summary>Commands that leave a store the way a crash does: written, never closed.</summary>
internal static class CrashCommands
{
    /// <summary>Runs <c>fill</c>, prints <c>FILLED</c>, then waits to be killed, so the store is never closed cleanly.</summary>
    public static int FillAndHang(IKeyValueStore store, string tag, int count, int size)
    {
        Commands.Fill(store, tag, count, size);
        Console.WriteLine("FILLED");
        Thread.Sleep(Timeout.Infinite);
        return 0;
    }
}
