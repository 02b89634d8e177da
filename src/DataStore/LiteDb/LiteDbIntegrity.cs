using LiteDB;

namespace DataStore.LiteDb;

/// <summary>
/// LiteDB 5 has no integrity check of its own, so this reads every pair document through the engine (LiteDB fails on
/// pages it cannot read), and checks each has a key and either an inline value or a complete set of chunks.
/// </summary>
/// <remarks>
/// Documents are read in chunks of <see cref="ChunkDocuments"/>, each query (and so its read transaction) ending before
/// the next starts after the last id read: one query over the whole store would keep every page it read in LiteDB's
/// cache until it ended. The caller holds the write lock for one chunk at a time (<see cref="NextChunk"/>), so a
/// document and its value chunks are read in one state of the store, and writers wait for one chunk, not the whole
/// check (at 200,000 pairs the whole check held them past a 5 s timeout). Every pair present from the start to the end
/// of the check is checked; one written or deleted meanwhile may or may not be.
/// </remarks>
internal sealed class LiteDbIntegrity
{
    private const int MaxProblems = 100;
    private const int ChunkDocuments = 256;

    private readonly List<string> _problems = [];
    private long _pairs;
    private byte[] _buffer = [];
    private BsonValue? _last;

    /// <summary>What the check found so far.</summary>
    public IReadOnlyList<string> Problems => _problems;

    /// <summary>Checks the next chunk of pair documents after the last one checked; false once the check is complete.</summary>
    public bool NextChunk(LiteDbEngine db, CancellationToken cancellationToken)
    {
        var read = 0;
        try
        {
            using var reader = db.Engine.Query(LiteDbTable.Pairs, _last is null ? new Query() : new Query { Where = { BsonExpression.Create("_id > @0", _last) } });
            while (read < ChunkDocuments && _problems.Count < MaxProblems && reader.Read())
            {
                read++;
                if ((++_pairs & 1023) == 0)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                }

                var doc = reader.Current.AsDocument;
                _last = doc["_id"];
                Check(db, doc, ref _buffer, _problems);
            }
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            _problems.Add($"LiteDB could not read every document after {_pairs}: {e.Message}.");
            return false;
        }

        return read == ChunkDocuments && _problems.Count < MaxProblems;
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
