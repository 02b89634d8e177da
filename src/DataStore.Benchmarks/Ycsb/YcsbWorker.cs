namespace DataStore.Benchmarks.Ycsb;

/// <summary>One client thread of a YCSB run: its own random stream and buffers, shared key choosers and insert counter.</summary>
public sealed class YcsbWorker(int seed, ZipfianGenerator zipfian, YcsbRecordCounter records, byte[] valuePool)
{
    private readonly Random _random = new(seed);
    private readonly byte[] _key = new byte[YcsbKeys.KeySize];
    private readonly byte[] _buffer = new byte[256];

    /// <summary>Runs <paramref name="operations"/> operations of <paramref name="workload"/> against <paramref name="target"/>; returns a checksum of what was read.</summary>
    public long Run(IYcsbTarget target, YcsbWorkload workload, int operations)
    {
        long sum = 0;
        for (var i = 0; i < operations; i++)
        {
            var dice = _random.NextDouble();
            if ((dice -= workload.Reads) < 0)
            {
                YcsbKeys.Write(workload.Latest ? records.Latest(zipfian.Next(_random)) : zipfian.NextScrambled(_random), _key);
                sum += target.Read(_key, _buffer);
            }
            else if ((dice -= workload.Updates) < 0)
            {
                YcsbKeys.Write(zipfian.NextScrambled(_random), _key);
                target.Write(_key, Value());
            }
            else if ((dice -= workload.Inserts) < 0)
            {
                YcsbKeys.Write(records.Reserve(), _key);
                target.Write(_key, Value());
            }
            else if ((dice -= workload.Scans) < 0)
            {
                YcsbKeys.Write(zipfian.NextScrambled(_random), _key);
                sum += target.Scan(_key, 1 + _random.Next(YcsbWorkload.MaxScanLength));
            }
            else
            {
                YcsbKeys.Write(zipfian.NextScrambled(_random), _key);
                var length = target.Read(_key, _buffer);
                sum += length;
                if (length > 0)
                {
                    _buffer[0]++;
                    target.Write(_key, _buffer.AsSpan(0, length));
                }
            }
        }

        return sum;
    }

    private ReadOnlySpan<byte> Value() => valuePool.AsSpan(_random.Next(valuePool.Length - YcsbKeys.ValueSize), YcsbKeys.ValueSize);
}
