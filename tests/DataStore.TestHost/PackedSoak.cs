using System.Buffers.Binary;
using DataStore;

namespace DataStore.TestHost;

/// <summary>Builds a Packed store from pairs in scrambled order, generated on the fly, and prints the process's peak resident memory.</summary>
internal static class PackedSoak
{
    /// <summary>Pair i is <c>key/{p(i)}</c> (8 bytes big-endian) = 100 bytes derived from p(i), where p is a bijection of 0..count-1.</summary>
    public static int Run(DataStoreOptions options, int count)
    {
        var pairs = PackedStore.Build(Scrambled(count), options.Path);
        Console.WriteLine($"PACKED {pairs} PEAK {PeakResidentBytes()}");
        return 0;
    }

    public static byte[] Key(long id)
    {
        var key = new byte[12];
        "key/"u8.CopyTo(key);
        BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(4), id);
        return key;
    }

    private static IEnumerable<KeyValuePair<byte[], byte[]>> Scrambled(int count)
    {
        const long Step = 2_654_435_761; // a prime: i * Step mod count visits every id once when count is not a multiple of it
        for (long i = 0; i < count; i++)
        {
            var id = i * Step % count;
            var value = new byte[100];
            BinaryPrimitives.WriteInt64LittleEndian(value, id);
            value.AsSpan(8).Fill((byte)id);
            yield return KeyValuePair.Create(Key(id), value);
        }
    }

    private static long PeakResidentBytes()
    {
        var line = File.ReadLines("/proc/self/status").First(l => l.StartsWith("VmHWM:", StringComparison.Ordinal));
        return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], System.Globalization.CultureInfo.InvariantCulture) * 1024;
    }
}
