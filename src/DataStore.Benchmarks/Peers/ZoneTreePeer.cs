using DataStore.Benchmarks.Ycsb;
using ZoneTree;
using ZoneTree.Comparers;
using ZoneTree.Options;
using ZoneTree.Serializers;

namespace DataStore.Benchmarks.Peers;

/// <summary>
/// ZoneTree 2.1.3, a pure .NET LSM tree, as its documentation sets it up for byte keys and values: its write-ahead log
/// in <c>Sync</c> mode (each <c>Upsert</c> reaches the operating system before it returns, no fsync: what DataStore's
/// Relaxed level promises), its maintainer merging segments in the background, an iterator per scan.
/// </summary>
public sealed class ZoneTreePeer : IYcsbTarget
{
    private readonly string _directory;
    private readonly IZoneTree<Memory<byte>, Memory<byte>> _tree;
    private readonly IMaintainer _maintainer;

    public ZoneTreePeer(string directory)
    {
        _directory = Path.Combine(directory, "peer.zonetree");
        _tree = new ZoneTreeFactory<Memory<byte>, Memory<byte>>()
            .SetComparer(new ByteArrayLexicographicComparerAscending())
            .SetKeySerializer(new ByteArraySerializer())
            .SetValueSerializer(new ByteArraySerializer())
            .SetDataDirectory(_directory)
            .ConfigureWriteAheadLogOptions(options => options.WriteAheadLogMode = WriteAheadLogMode.Sync)
            .OpenOrCreate();
        _maintainer = _tree.CreateMaintainer();
    }

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        foreach (var (key, value) in pairs)
        {
            Memory<byte> k = key, v = value;
            _tree.Upsert(in k, in v);
        }
    }

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer)
    {
        Memory<byte> k = key.ToArray();
        if (!_tree.TryGet(in k, out var value))
        {
            return -1;
        }

        value.Span.CopyTo(buffer);
        return value.Length;
    }

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        Memory<byte> k = key.ToArray(), v = value.ToArray();
        _tree.Upsert(in k, in v);
    }

    public int Scan(ReadOnlySpan<byte> start, int count)
    {
        Memory<byte> k = start.ToArray();
        using var iterator = _tree.CreateIterator(IteratorType.NoRefresh);
        iterator.Seek(in k);
        var read = 0;
        while (read < count && iterator.Next())
        {
            read += iterator.CurrentValue.Length > 0 ? 1 : 0;
        }

        return read;
    }

    public void Dispose()
    {
        _maintainer.WaitForBackgroundThreads();
        _maintainer.Dispose();
        _tree.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
