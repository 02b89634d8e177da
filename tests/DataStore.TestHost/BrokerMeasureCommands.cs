using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using DataStore;

namespace DataStore.TestHost;

/// <summary>Commands that time a store's scans and batches from one process (<c>scripts/measure-broker.py</c> runs them beside an owner).</summary>
internal static class BrokerMeasureCommands
{
    /// <summary>Scans the whole store, printing <c>SCANNED pairs seconds role</c>.</summary>
    public static int ScanRate(IKeyValueStore store)
    {
        var clock = Stopwatch.StartNew();
        long pairs = 0;
        long bytes = 0;
        using (var cursor = store.ScanPrefix([]))
        {
            while (cursor.MoveNext())
            {
                pairs++;
                bytes += cursor.Value.Length;
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"SCANNED {pairs} {clock.Elapsed.TotalSeconds:0.000} {store.Sharing.Role} {bytes}"));
        return 0;
    }

    /// <summary>
    /// Writes <paramref name="batches"/> batches of <paramref name="size"/> keys (<c>tag</c>, 9-byte keys, 128-byte values),
    /// printing <c>READY</c>, waiting for a line on stdin, then printing <c>WROTE keys seconds role</c> (the role it
    /// started in); then waits for another line (the harness sends it once every writer is done, so an owner serves its
    /// clients to their last batch instead of handing the store over) and, with <paramref name="steps"/>, prints the
    /// broker's per-step timers of this process (<c>STEP name calls total-ms us-per-call bytes-allocated-per-call</c>)
    /// and its allocations and collections (<c>GC allocated-bytes gen0 gen1 gen2</c>).
    /// </summary>
    public static int BatchRate(IKeyValueStore store, string tag, int batches, int size, bool steps)
    {
        if (steps)
        {
            Sharing.BrokerSteps.Enable();
        }

        var key = new byte[9];
        key[0] = (byte)tag[0];
        var value = new byte[128];
        var batch = new WriteBatch();
        var role = store.Sharing.Role; // before writing: a client becomes the owner when the owner exits first
        Console.WriteLine("READY");
        Console.ReadLine(); // the harness starts every writer at once
        var clock = Stopwatch.StartNew();
        for (var b = 0; b < batches; b++)
        {
            for (var i = 0; i < size; i++)
            {
                BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(1), ((long)b * size) + i);
                batch.Put(key, value);
            }

            store.Write(batch);
            batch.Clear();
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"WROTE {(long)batches * size} {clock.Elapsed.TotalSeconds:0.000} {role}"));
        Console.ReadLine();
        if (steps)
        {
            PrintSteps();
        }

        return 0;
    }

    private static void PrintSteps()
    {
        foreach (var (step, calls, total, allocated) in Sharing.BrokerSteps.Read())
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"STEP {step} {calls} {total.TotalMilliseconds:0.0} {total.TotalMicroseconds / calls:0.0} {allocated / calls}"));
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"GC {GC.GetTotalAllocatedBytes(precise: true)} {GC.CollectionCount(0)} {GC.CollectionCount(1)} {GC.CollectionCount(2)}"));
    }
}
