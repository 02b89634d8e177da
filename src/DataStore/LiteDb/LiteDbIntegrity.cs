using LiteDB;

namespace DataStore.LiteDb;

/// <summary>
/// LiteDB 5 has no integrity check of its own, so this reads every pair document through the engine (LiteDB fails on
/// pages it cannot read), and checks each has a key and either an inline value or a complete set of chunks.
/// </summary>
internal static class LiteDbIntegrity
{
    private const int MaxProblems = 100;

    public static IReadOnlyList<string> Check(LiteDbEngine db, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        long pairs = 0;
        byte[] buffer = [];
        try
        {
            using var reader = db.Engine.Query(LiteDbTable.Pairs, new Query());
            while (reader.Read() && problems.Count < MaxProblems)
            {
                if ((++pairs & 1023) == 0)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                }

                var doc = reader.Current.AsDocument;
                var id = doc["_id"];
                var hasKey = id.IsBinary && (!LiteDbKeys.IsLongId(id.AsBinary) || (doc.TryGetValue("k", out var key) && key.IsBinary));
                if (!hasKey || (!doc.ContainsKey("v") && !(doc.ContainsKey("b") && doc.ContainsKey("n"))))
                {
                    problems.Add($"Pair document {doc["_id"]} lacks its key or its value.");
                    continue;
                }

                if (!LiteDbTable.IsChunked(doc))
                {
                    continue;
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
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            problems.Add($"LiteDB could not read every document after {pairs}: {e.Message}.");
        }

        return problems;
    }
}
