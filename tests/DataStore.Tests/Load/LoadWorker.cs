using System.Buffers.Binary;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Load;

/// <summary>
/// One thread of the load: point reads, presence checks, puts, deletes, batches, compare-and-swaps and short scans over
/// keys only this thread writes (<c>load/{thread}/{i}</c>), checked against a model of what it wrote, so a lost or
/// changed write fails at the next read of that key, not only at the end.
/// </summary>
internal sealed class LoadWorker(IKeyValueStore store, int thread, int seed)
{
    private const int KeysPerThread = 2_000;

    private readonly Random _random = new(seed + thread);
    private readonly int?[] _model = new int?[KeysPerThread]; // the version each key holds, null when absent
    private int _version;

    /// <summary>Operations done.</summary>
    public long Operations { get; private set; }

    /// <summary>Runs until <paramref name="stop"/> is cancelled.</summary>
    public void Run(CancellationToken stop)
    {
        var buffer = new byte[64];
        while (!stop.IsCancellationRequested)
        {
            var i = _random.Next(KeysPerThread);
            var dice = _random.Next(100);
            if (dice < 35)
            {
                var length = store.Get(Key(i), buffer);
                Assert.True(_model[i] is { } v ? length == 8 && Version(buffer.AsSpan(0, 8)) == v : length < 0, Describe(i, "Get"));
            }
            else if (dice < 50)
            {
                Assert.True(store.HaveKey(Key(i)) == _model[i].HasValue, Describe(i, "HaveKey"));
            }
            else if (dice < 70)
            {
                Put(i);
            }
            else if (dice < 75)
            {
                store.Delete(Key(i));
                _model[i] = null;
            }
            else if (dice < 85)
            {
                Batch(i);
            }
            else if (dice < 90)
            {
                CompareAndSwap(i);
            }
            else
            {
                Scan(i);
            }

            Operations++;
        }
    }

    /// <summary>Reads every key this thread wrote and checks it against the model.</summary>
    public void CheckAll(IKeyValueStore reader)
    {
        for (var i = 0; i < KeysPerThread; i++)
        {
            var value = reader.Get(Key(i));
            Assert.True(_model[i] is { } v ? value is not null && Version(value) == v : value is null, Describe(i, "final read"));
        }
    }

    private void Put(int i)
    {
        var version = ++_version;
        store.Put(Key(i), Value(version));
        _model[i] = version;
    }

    private void Batch(int first)
    {
        var batch = new WriteBatch();
        var changes = new List<(int Key, int? Version)>();
        for (var n = _random.Next(2, 9); n > 0; n--)
        {
            var i = (first + _random.Next(64)) % KeysPerThread;
            if (_random.Next(4) == 0)
            {
                batch.Delete(Key(i));
                changes.Add((i, null));
            }
            else
            {
                var version = ++_version;
                batch.Put(Key(i), Value(version));
                changes.Add((i, version));
            }
        }

        store.Write(batch);
        foreach (var (i, version) in changes)
        {
            _model[i] = version;
        }
    }

    // Nobody else writes this thread's keys, so a precondition on what the model says must hold.
    private void CompareAndSwap(int i)
    {
        var batch = _model[i] is { } v ? new WriteBatch().RequireValue(Key(i), Value(v)) : new WriteBatch().RequireAbsent(Key(i));
        var version = ++_version;
        Assert.True(store.TryWrite(batch.Put(Key(i), Value(version)), out _), Describe(i, "compare-and-swap precondition"));
        _model[i] = version;
    }

    private void Scan(int i)
    {
        var end = Math.Min(KeysPerThread, i + 50);
        var pairs = StoreAssert.Range(store, Key(i), Key(end));
        var expected = Enumerable.Range(i, end - i).Where(k => _model[k].HasValue).ToList();
        Assert.True(expected.Count == pairs.Count, Describe(i, $"scan to {end} returned {pairs.Count} pairs, expected {expected.Count}"));
        for (var n = 0; n < pairs.Count; n++)
        {
            Assert.True(pairs[n].Key.AsSpan().SequenceEqual(Key(expected[n])) && Version(pairs[n].Value) == _model[expected[n]], Describe(expected[n], "scan"));
        }
    }

    private string Describe(int i, string what) => $"seed {seed}, thread {thread}: {what} of key {i} disagrees with the {(_model[i] is { } v ? $"version {v}" : "absence")} written";

    private byte[] Key(int i)
    {
        var key = new byte[11];
        "load/"u8.CopyTo(key);
        key[5] = (byte)thread;
        key[6] = (byte)'/';
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(7), i);
        return key;
    }

    private static byte[] Value(int version)
    {
        var value = new byte[8];
        BinaryPrimitives.WriteInt32BigEndian(value, version);
        BinaryPrimitives.WriteInt32BigEndian(value.AsSpan(4), ~version);
        return value;
    }

    private static int Version(ReadOnlySpan<byte> value) =>
        value.Length == 8 && BinaryPrimitives.ReadInt32BigEndian(value[4..]) == ~BinaryPrimitives.ReadInt32BigEndian(value)
            ? BinaryPrimitives.ReadInt32BigEndian(value)
            : -1;
}
