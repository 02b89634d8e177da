using DataStore.Tests.Conformance;
using LiteDB;
using LiteDB.Engine;

namespace DataStore.Tests.LiteDb;

/// <summary>LiteDB itself orders binary <c>_id</c> values in memcmp order, which the backend relies on for its scans.</summary>
public sealed class LiteDbIdOrderTests
{
    private static readonly byte[][] Sorted =
    [
        [0x00], [0x00, 0x00], [0x00, 0x00, 0xFF], [0x00, 0x01], [0x00, 0xFF], [0x01], [0x01, 0x00], [0x01, 0x00, 0x00],
        [0x01, 0x01], [0x7F], [0x7F, 0xFF], [0x80], [0x80, 0x00], [0xFE, 0xFF, 0xFF], [0xFF], [0xFF, 0x00], [0xFF, 0xFF], [0xFF, 0xFF, 0xFF],
    ];

    [Fact]
    public void An_index_scan_over_binary_ids_returns_them_in_memcmp_order_a_proper_prefix_first()
    {
        using var engine = new LiteEngine(new EngineSettings { DataStream = new MemoryStream() });
        var shuffled = Sorted.ToArray();
        new Random(8).Shuffle(shuffled);
        engine.Insert("ids", shuffled.Select(id => new BsonDocument { ["_id"] = new BsonValue(id) }), BsonAutoId.ObjectId);

        using var reader = engine.Query("ids", new Query { Where = { BsonExpression.Create("_id >= @0", new BsonValue(Array.Empty<byte>())) } });
        var scanned = new List<byte[]>();
        while (reader.Read())
        {
            scanned.Add(reader.Current["_id"].AsBinary);
        }

        Assert.Equal(Sorted, scanned);
    }

    [Fact]
    public void Random_binary_ids_come_back_in_KeyOrder()
    {
        var random = new Random(9);
        var ids = Enumerable.Range(0, 2_000).Select(_ => Bytes.Random(random.Next(1, 12), random.Next()))
            .Select(b => b.Select(x => (byte)(x % 3 == 0 ? 0x00 : x % 3 == 1 ? 0xFF : x)).ToArray())
            .DistinctBy(Convert.ToHexString).ToList();
        using var engine = new LiteEngine(new EngineSettings { DataStream = new MemoryStream() });
        engine.Insert("ids", ids.Select(id => new BsonDocument { ["_id"] = new BsonValue(id) }), BsonAutoId.ObjectId);

        using var reader = engine.Query("ids", new Query { Where = { BsonExpression.Create("_id BETWEEN @0 AND @1", new BsonValue(Array.Empty<byte>()), new BsonValue(Enumerable.Repeat((byte)0xFF, 20).ToArray())) } });
        var scanned = new List<byte[]>();
        while (reader.Read())
        {
            scanned.Add(reader.Current["_id"].AsBinary);
        }

        ids.Sort(KeyOrder.Instance);
        Assert.Equal(ids, scanned);
    }
}
