using DataStore.Benchmarks.Ycsb;
using LiteDB;

namespace DataStore.Benchmarks.Peers;

/// <summary>
/// LiteDB as a .NET developer would use it directly: one <c>LiteDatabase</c> in its default direct mode, a
/// <c>BsonDocument</c> collection <c>{ _id: key, v: value }</c>, <c>FindById</c>, <c>Upsert</c>, and a scan as
/// a query on <c>_id</c> with a limit.
/// </summary>
public sealed class LiteDbPeer : IYcsbTarget
{
    private readonly LiteDatabase _db;
    private readonly ILiteCollection<BsonDocument> _pairs;

    public LiteDbPeer(string directory)
    {
        _db = new LiteDatabase($"Filename={Path.Combine(directory, "peer.litedb")};Connection=Direct");
        _pairs = _db.GetCollection("kv");
    }

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs) =>
        _pairs.Upsert(pairs.Select(p => new BsonDocument { ["_id"] = new BsonValue(p.Key), ["v"] = new BsonValue(p.Value) }));

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer)
    {
        if (_pairs.FindById(new BsonValue(key.ToArray())) is not { } document)
        {
            return -1;
        }

        var value = document["v"].AsBinary;
        value.CopyTo(buffer);
        return value.Length;
    }

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        _pairs.Upsert(new BsonDocument { ["_id"] = new BsonValue(key.ToArray()), ["v"] = new BsonValue(value.ToArray()) });

    public int Scan(ReadOnlySpan<byte> start, int count) =>
        _pairs.Find(Query.GTE("_id", new BsonValue(start.ToArray())), limit: count).Count(document => document["v"].AsBinary.Length > 0);

    public void Dispose() => _db.Dispose();
}
