using LiteDB;
using LiteDB.Engine;

namespace DataStore.LiteDb;

/// <summary>
/// Creates an empty collection: a collection exists from its first document on (a snapshot of a missing one would
/// not see it appear), so a marker document with id 0x00 is inserted and deleted in one transaction.
/// </summary>
/// <remarks>
/// Earlier versions inserted and deleted it in two transactions: a process killed between them left the marker, a
/// document with no value that verify reported as damage after about one kill -9 round in 50-200 (issue 20).
/// <see cref="RemoveLeftover"/> removes such a marker when the store opens.
/// </remarks>
internal static class LiteDbCreationMarker
{
    private static readonly BsonValue Id = new(new byte[] { 0 });

    /// <summary>Creates collection <paramref name="name"/>, empty, in one transaction.</summary>
    public static void Create(ILiteEngine engine, string name)
    {
        engine.BeginTrans();
        try
        {
            engine.Insert(name, [new BsonDocument { ["_id"] = Id }], BsonAutoId.ObjectId);
            engine.Delete(name, [Id]);
            engine.Commit();
        }
        catch
        {
            engine.Rollback();
            throw;
        }
    }

    /// <summary>Removes a marker left in <paramref name="name"/>: id 0x00 and no other field (a pair or chunk with that id always has fields).</summary>
    public static void RemoveLeftover(ILiteEngine engine, string name)
    {
        using (var reader = engine.Query(name, new Query { Where = { BsonExpression.Create("_id = @0", Id) } }))
        {
            if (!reader.Read() || reader.Current.AsDocument.Count != 1)
            {
                return;
            }
        }

        engine.Delete(name, [Id]);
    }
}
