using System.Buffers.Binary;
using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The <c>mixed-loop seed count</c> command: single puts, 2-key batches and compare-and-swap increments in a seeded
/// random order, as fast as it can, printing one line per acknowledged write: <c>ACK P i</c> (put/i = i),
/// <c>ACK B i</c> (batch/i/a and batch/i/b = i, one batch) or <c>ACK C n</c> (counter went from n - 1 to n).
/// Every line is printed only after the call returned; the parent kills this process at a random moment.
/// </summary>
internal static class MixedWriteLoop
{
    public static int Run(IKeyValueStore store, int seed, int count)
    {
        var random = new Random(seed);
        var counter = "counter"u8.ToArray();
        Console.WriteLine("OPENED");
        for (var i = 1; i <= count; i++)
        {
            switch (random.Next(3))
            {
                case 0:
                    store.Put(Commands.Key("put", i), Commands.Number(i));
                    Console.WriteLine($"ACK P {i}");
                    break;
                case 1:
                    store.Write(new WriteBatch()
                        .Put([.. Commands.Key("batch", i), (byte)'a'], Commands.Number(i))
                        .Put([.. Commands.Key("batch", i), (byte)'b'], Commands.Number(i)));
                    Console.WriteLine($"ACK B {i}");
                    break;
                default:
                    var current = store.Get(counter);
                    var next = current is null ? 1 : BinaryPrimitives.ReadInt32BigEndian(current) + 1;
                    var batch = current is null ? new WriteBatch().RequireAbsent(counter) : new WriteBatch().RequireValue(counter, current);
                    if (!store.TryWrite(batch.Put(counter, Commands.Number(next)), out _))
                    {
                        Console.WriteLine("CONFLICT"); // no other writer: a failed precondition is a bug the parent reports
                        return 1;
                    }

                    Console.WriteLine($"ACK C {next}");
                    break;
            }
        }

        return 0;
    }
}
