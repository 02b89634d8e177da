using System.Buffers.Binary;
using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// Scans, in the native anchor's shape: the core suite's 100,000 keys plus 100 groups of 1,000 keys
/// (tag 0x02 + 4-byte big-endian group + 4-byte item), 128-byte values. <c>PrefixScan1000</c> reads one random
/// group whole (time per scan, against the anchor's <c>prefix_scan</c>); <c>FullScan</c> reads all 200,000 pairs
/// (time per pair, against <c>full_scan</c>). Each pair's key and value are read, as the anchor copies them.
/// <c>KeysOnlyPrefixScan1000</c> reads a group's keys only; <c>ShortScan</c> reads 1-100 pairs from a random core key
/// with no end (YCSB E's scan: the time to the first pair and a scan's fixed cost dominate).
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class ScanBenchmarks : PreloadedStoreBenchmarks
{
    private const int DefaultGroups = 100;
    private const int GroupSize = 1_000;
    private const int Mask = (1 << 12) - 1;

    private readonly WriteBatch _batch = new();
    private byte[][] _prefixes = [];
    private byte[][] _starts = [];
    private int[] _lengths = [];
    private int _next;

    /// <summary>100 groups, fewer in a dry pass with fewer keys (at least one).</summary>
    private static int Groups => Math.Clamp(Preloaded / GroupSize, 1, DefaultGroups);

    [GlobalSetup]
    public void Setup()
    {
        var pool = BenchmarkData.ValuePool(7);
        OpenStore(pool);
        var random = new Random(3);
        for (var group = 0; group < Groups; group++)
        {
            _batch.Clear();
            for (var item = 0; item < GroupSize; item++)
            {
                _batch.Put(GroupKey(group, item), pool.AsSpan(random.Next(pool.Length - BenchmarkData.ValueSize), BenchmarkData.ValueSize));
            }

            Store.Write(_batch);
        }

        _prefixes = Enumerable.Range(0, Mask + 1).Select(_ => GroupKey(random.Next(Groups), 0)[..5]).ToArray();
        _starts = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(2L * random.Next(Preloaded))).ToArray();
        _lengths = Enumerable.Range(0, Mask + 1).Select(_ => 1 + random.Next(100)).ToArray();
    }

    [Benchmark]
    public int PrefixScan1000()
    {
        var sum = 0;
        using var cursor = Store.ScanPrefix(_prefixes[_next++ & Mask]);
        while (cursor.MoveNext())
        {
            sum += cursor.Key[^1] ^ cursor.Value[0];
        }

        return sum;
    }

    [Benchmark]
    public int KeysOnlyPrefixScan1000()
    {
        var sum = 0;
        using var cursor = Store.ScanPrefix(_prefixes[_next++ & Mask], keysOnly: true);
        while (cursor.MoveNext())
        {
            sum += cursor.Key[^1];
        }

        return sum;
    }

    /// <summary>Per scan of 1-100 pairs (50.5 on average) from a random key to the end of the store.</summary>
    [Benchmark]
    public int ShortScan()
    {
        var sum = 0;
        var index = _next++ & Mask;
        var left = _lengths[index];
        using var cursor = Store.ScanRange(_starts[index], []);
        while (left-- > 0 && cursor.MoveNext())
        {
            sum += cursor.Key[^1] ^ cursor.Value[0];
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = BenchmarkCommandLine.DefaultKeys + DefaultGroups * GroupSize)]
    public int FullScan()
    {
        var sum = 0;
        using var cursor = Store.ScanPrefix([]);
        while (cursor.MoveNext())
        {
            sum += cursor.Key[^1] ^ cursor.Value[0];
        }

        return sum;
    }

    private static byte[] GroupKey(int group, int item)
    {
        var key = new byte[9];
        key[0] = 0x02;
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(1), group);
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(5), item);
        return key;
    }
}
