using DataStore.LiteDb;
using LiteDB;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.LiteDb;

/// <summary>The LiteDb integrity check reads every document in chunks of its own and reports each damaged one.</summary>
public sealed class LiteDbIntegrityTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Damage_before_and_after_many_chunks_of_documents_is_all_reported()
    {
        using (var store = Open())
        {
            var batch = new WriteBatch();
            for (var i = 0; i < 1_000; i++)
            {
                batch.Put([5, .. BitConverter.GetBytes(i)], [1, 2, 3]);
            }

            store.Write(batch);
            store.Put([9], new byte[LiteDbTable.InlineLimit + 5_000]);
        }

        using (var engine = LiteDbEngine.Open(_directory.Path, LiteDbKeys.Default))
        {
            engine.Engine.Insert(LiteDbTable.Pairs, [new BsonDocument { ["_id"] = new BsonValue(new byte[] { 1 }) }], BsonAutoId.ObjectId);
            BsonValue chunk;
            using (var reader = engine.Engine.Query(LiteDbTable.Chunks, new Query { Limit = 1 }))
            {
                Assert.True(reader.Read());
                chunk = reader.Current["_id"];
            }

            Assert.Equal(1, engine.Engine.Delete(LiteDbTable.Chunks, [chunk]));
        }

        using var reopened = Open();
        var problems = reopened.CheckIntegrityCore(TestContext.Current.CancellationToken);
        Assert.Equal(2, problems.Count);
        Assert.Contains("lacks its key or its value", problems[0], StringComparison.Ordinal);
        Assert.Contains("is missing chunks", problems[1], StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();

    private LiteDbStore Open() =>
        LiteDbStore.Open(_directory.Path, Durability.Relaxed, new DataStoreOptions { Path = _directory.Path }, NullLogger.Instance);
}
