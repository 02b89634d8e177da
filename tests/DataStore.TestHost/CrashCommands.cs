namespace DataStore.TestHost;

/// <summary>Commands that leave a store the way a crash does (written, never closed), and read a damaged one.</summary>
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

    /// <summary>Scans every pair (values too), then reads each key back; prints <c>READ n</c>. Damage must end as a DataStoreException (exit 3), never a crash.</summary>
    public static int ReadAll(IKeyValueStore store)
    {
        var keys = new List<byte[]>();
        using (var cursor = store.ScanPrefix([]))
        {
            while (cursor.MoveNext())
            {
                keys.Add(cursor.Key.ToArray());
            }
        }

        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        foreach (var key in keys)
        {
            buffer.ResetWrittenCount();
            store.Get(key, buffer);
        }

        Console.WriteLine($"READ {keys.Count}");
        return 0;
    }
}
