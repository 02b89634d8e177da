using System.Diagnostics;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// One client thread of a YCSB run: its own random stream, buffers and latency histograms, shared key choosers and
/// insert counter. Each operation's latency covers the calls into the target only, not choosing its key.
/// </summary>
public sealed class YcsbWorker(int seed, ZipfianGenerator zipfian, YcsbRecordCounter records, byte[] valuePool)
{
    private readonly Random _random = new(seed);
    private readonly byte[] _key = new byte[YcsbKeys.KeySize];
    private readonly byte[] _buffer = new byte[256];

    /// <summary>The latency of every operation this worker ran, per kind of operation.</summary>
    public YcsbLatencies Latencies { get; } = new();

    /// <summary>Runs <paramref name="operations"/> operations of <paramref name="workload"/> against <paramref name="target"/>; returns a checksum of what was read.</summary>
    public long Run(IYcsbTarget target, YcsbWorkload workload, int operations)
    {
        long sum = 0;
        for (var i = 0; i < operations; i++)
        {
            var operation = Choose(workload);
            var value = operation is YcsbOperation.Update or YcsbOperation.Insert ? Value() : default;
            var scanLength = operation == YcsbOperation.Scan ? 1 + _random.Next(YcsbWorkload.MaxScanLength) : 0;
            var start = Stopwatch.GetTimestamp();
            sum += operation switch
            {
                YcsbOperation.Read => target.Read(_key, _buffer),
                YcsbOperation.Scan => target.Scan(_key, scanLength),
                YcsbOperation.ReadModifyWrite => ReadModifyWrite(target),
                _ => Write(target, value),
            };
            Latencies[operation].RecordTicks(Stopwatch.GetTimestamp() - start);
        }

        return sum;
    }

    /// <summary>Draws the next operation of <paramref name="workload"/> and writes its key into the key buffer.</summary>
    private YcsbOperation Choose(YcsbWorkload workload)
    {
        var dice = _random.NextDouble();
        if ((dice -= workload.Reads) < 0)
        {
            YcsbKeys.Write(workload.Latest ? records.Latest(zipfian.Next(_random)) : zipfian.NextScrambled(_random), _key);
            return YcsbOperation.Read;
        }

        var operation = (dice -= workload.Updates) < 0 ? YcsbOperation.Update
            : (dice -= workload.Inserts) < 0 ? YcsbOperation.Insert
            : (dice -= workload.Scans) < 0 ? YcsbOperation.Scan
            : YcsbOperation.ReadModifyWrite;
        YcsbKeys.Write(operation == YcsbOperation.Insert ? records.Reserve() : zipfian.NextScrambled(_random), _key);
        return operation;
    }

    private int Write(IYcsbTarget target, ReadOnlySpan<byte> value)
    {
        target.Write(_key, value);
        return 0;
    }

    private int ReadModifyWrite(IYcsbTarget target)
    {
        var length = target.Read(_key, _buffer);
        if (length > 0)
        {
            _buffer[0]++;
            target.Write(_key, _buffer.AsSpan(0, length));
        }

        return length;
    }

    private ReadOnlySpan<byte> Value() => valuePool.AsSpan(_random.Next(valuePool.Length - YcsbKeys.ValueSize), YcsbKeys.ValueSize);
}
