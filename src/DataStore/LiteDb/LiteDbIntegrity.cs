using LiteDB;

namespace DataStore.LiteDb;

/// <summary>
/// LiteDB 5 has no integrity check of its own, so this reads every pair document through the engine (LiteDB fails on
/// pages it cannot read), and checks each has a key and either an inline value or a complete set of chunks.
/// </summary>
/// <remarks>
/// Documents are read in chunks of <see cref="ChunkDocuments"/>, each query (and so its read transaction) ending before
/// the next starts after the last id read: one query over the whole store would keep every page it read in LiteDB's
/// cache until it ended. The caller holds the write lock, so the chunks see one state of the store.
/// </remarks>
internal static class LiteDbIntegrity
{
    private const int MaxProblems = 100;
    private const int ChunkDocuments = 256;

    public static IReadOnlyList<string> Check(LiteDbEngine db, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        long pairs = 0;
        byte[] buffer = [];
        BsonValue? last = null;
        try
        {
            var read = ChunkDocuments;
            while (read == ChunkDocuments && problems.Count < MaxProblems)
            {
                read = 0;
                using var reader = db.Engine.Query(LiteDbTable.Pairs, last is null ? new Query() : new Query { Where = { BsonExpression.Create("_id > @0", last) } });
                while (read < ChunkDocuments && problems.Count < MaxProblems && reader.Read())
                {
                    read++;
                    if ((++pairs & 1023) == 0)
                    {
                        cancellationToken.ThrowIfCancellationRequested();
                    }

                    var doc = reader.Current.AsDocument;
                    last = doc["_id"];
                    Check(db, doc, ref buffer, problems);
                }
            }
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            problems.Add($"LiteDB could not read every document after {pairs}: {e.Message}.");
        }

        return problems;
    }

    private static void Check(LiteDbEngine db, BsonDocument doc, ref byte[] buffer, List<string> problems)
    {
        var id = doc["_id"];
        var hasKey = id.IsBinary && (!LiteDbKeys.IsLongId(id.AsBinary) || (doc.TryGetValue("k", out var key) && key.IsBinary));
        if (!hasKey || (!doc.ContainsKey("v") && !(doc.ContainsKey("b") && doc.ContainsKey("n"))))
        {
            problems.Add($"Pair document {doc["_id"]} lacks its key or its value.");
            return;
        }

        if (!LiteDbTable.IsChunked(doc))
        {
            return;
        }

        var length = LiteDbTable.ValueLength(doc);
        if (buffer.Length < length)
        {
            buffer = new byte[length];
        }

        if (!db.Table.TryCopyValue(doc, buffer))
        {
            problems.Add($"The {length}-byte value of the key of pair document {doc["_id"]} is missing chunks.");
        }
    }
}
