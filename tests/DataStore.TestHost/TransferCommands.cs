using System.Buffers.Binary;
using System.Diagnostics;
using DataStore;

namespace DataStore.TestHost;

/// <summary>The transfer commands scripts/measure-transfer.sh times in their own processes: fill, export and import.</summary>
internal static class TransferCommands
{
    /// <summary>Fills <paramref name="count"/> keys shaped like the benchmark's (0x01 + 8-byte big-endian id) with 128-byte values.</summary>
    public static int FillBench(IKeyValueStore store, int count)
    {
        var random = new Random(42);
        var key = new byte[9];
        key[0] = 0x01;
        var value = new byte[128];
        var batch = new WriteBatch();
        for (var i = 0; i < count; i++)
        {
            BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(1), i);
            random.NextBytes(value);
            batch.Put(key, value);
            if (batch.Count == 10_000 || i == count - 1)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        Console.WriteLine($"FILLED {count}");
        return 0;
    }

    /// <summary>Exports the store to <paramref name="file"/>, printing the digest and the seconds taken.</summary>
    public static int Export(IKeyValueStore store, string file)
    {
        var clock = Stopwatch.StartNew();
        using var stream = new FileStream(file, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16);
        var digest = store.ExportAsync(stream).GetAwaiter().GetResult();
        Console.WriteLine($"EXPORTED {digest.Pairs} {digest.Bytes} {digest.Checksum} {clock.Elapsed.TotalSeconds:0.00}s");
        return 0;
    }

    /// <summary>Imports <paramref name="file"/> into the new store <paramref name="options"/> describe (the store is not opened first).</summary>
    public static int Import(DataStoreOptions options, string file)
    {
        var clock = Stopwatch.StartNew();
        using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16);
        var digest = StoreMaintenance.ImportAsync(stream, options).GetAwaiter().GetResult();
        Console.WriteLine($"IMPORTED {digest.Pairs} {digest.Bytes} {digest.Checksum} {clock.Elapsed.TotalSeconds:0.00}s");
        return 0;
    }
}
