using DataStore.Benchmarks.Ycsb;
using FASTER.core;

namespace DataStore.Benchmarks.Peers;

/// <summary>
/// Microsoft FASTER 2.6.5 (<c>FasterKV</c>), the in-memory ceiling: blittable keys and values, a log that fits in
/// memory, a session per thread, and nothing durable between checkpoints (this peer takes none). It has no ordered
/// scan, so workload E does not run on it.
/// </summary>
public sealed class FasterPeer : IYcsbTarget
{
    private readonly FasterKVSettings<FasterKey, FasterValue> _settings;
    private readonly FasterKV<FasterKey, FasterValue> _store;
    private readonly ThreadLocal<ClientSession<FasterKey, FasterValue, FasterValue, FasterValue, Empty, IFunctions<FasterKey, FasterValue, FasterValue, FasterValue, Empty>>> _sessions;

    public FasterPeer(string directory)
    {
        _settings = new FasterKVSettings<FasterKey, FasterValue>(Path.Combine(directory, "peer.faster"), deleteDirOnDispose: true)
        {
            IndexSize = 1L << 26,
            MemorySize = 1L << 30,
            PageSize = 1L << 25,
            EqualityComparer = new FasterKeyComparer(),
        };
        _store = new FasterKV<FasterKey, FasterValue>(_settings);
        _sessions = new(() => _store.NewSession<FasterValue, FasterValue, Empty>(new SimpleFunctions<FasterKey, FasterValue>()), trackAllValues: true);
    }

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        foreach (var (key, value) in pairs)
        {
            Write(key, value);
        }
    }

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer)
    {
        var session = _sessions.Value!;
        var k = FasterKey.Of(key);
        var value = default(FasterValue);
        var status = session.Read(ref k, ref value);
        if (status.IsPending)
        {
            session.CompletePendingWithOutputs(out var outputs, wait: true);
            using (outputs)
            {
                outputs.Next();
                status = outputs.Current.Status;
                value = outputs.Current.Output;
            }
        }

        return status.Found ? value.CopyTo(buffer) : -1;
    }

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var k = FasterKey.Of(key);
        var v = FasterValue.Of(value);
        _sessions.Value!.Upsert(ref k, ref v);
    }

    public int Scan(ReadOnlySpan<byte> start, int count) => throw new NotSupportedException("FASTER has no ordered scan.");

    public void Dispose()
    {
        foreach (var session in _sessions.Values)
        {
            session.Dispose();
        }

        _sessions.Dispose();
        _store.Dispose();
        _settings.Dispose();
    }
}
