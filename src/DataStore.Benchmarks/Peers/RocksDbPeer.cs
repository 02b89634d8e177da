using DataStore.Benchmarks.Ycsb;
using RocksDbSharp;

namespace DataStore.Benchmarks.Peers;

/// <summary>
/// RocksDB as a .NET developer would drive it by hand with RocksDbSharp: default options plus create-if-missing,
/// unsynced writes (the library's default), a <c>WriteBatch</c> per load chunk, an iterator per scan.
/// </summary>
public sealed class RocksDbPeer(string directory) : IYcsbTarget
{
    private readonly RocksDbSharp.RocksDb _db = RocksDbSharp.RocksDb.Open(new DbOptions().SetCreateIfMissing(true), Path.Combine(directory, "peer.rocksdb"));

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        using var batch = new RocksDbSharp.WriteBatch();
        foreach (var (key, value) in pairs)
        {
            batch.Put(key, value);
        }

        _db.Write(batch);
    }

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer)
    {
        var value = _db.Get(key.ToArray());
        if (value is null)
        {
            return -1;
        }

        value.CopyTo(buffer);
        return value.Length;
    }

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _db.Put(key.ToArray(), value.ToArray());

    public int Scan(ReadOnlySpan<byte> start, int count)
    {
        var read = 0;
        using var iterator = _db.NewIterator();
        for (iterator.Seek(start.ToArray()); read < count && iterator.Valid(); iterator.Next())
        {
            read += iterator.Value().Length > 0 ? 1 : 0;
        }

        return read;
    }

    public void Dispose() => _db.Dispose();
}
