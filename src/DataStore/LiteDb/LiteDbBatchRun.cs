using DataStore.Batches;

namespace DataStore.LiteDb;

/// <summary>
/// Applies a run of a batch's point operations (puts and deletes, between range deletes) in key order, each key's
/// last operation only, with the plain ones handed to LiteDB in one call each: one <c>Upsert</c> for every put of a
/// short key whose value fits inline, one <c>Delete</c> for every delete of a short key (when no value is chunked).
/// Keys in order touch LiteDB's index and data pages in order, and one call pays LiteDB's per-call work once.
/// </summary>
internal sealed class LiteDbBatchRun(LiteDbTable table, WriteBatch batch)
{
    private readonly List<int> _operations = [];

    /// <summary>Adds the operation at <paramref name="index"/> (a put or a delete) to the run.</summary>
    public void Add(int index) => _operations.Add(index);

    /// <summary>Applies the run's operations inside the writer's transaction and empties it.</summary>
    public void Apply()
    {
        if (_operations.Count == 0)
        {
            return;
        }

        // By key, then by position: of several operations on one key, the last one stands.
        _operations.Sort((a, b) =>
        {
            var order = batch.First(batch.Operation(a)).SequenceCompareTo(batch.First(batch.Operation(b)));
            return order != 0 ? order : a.CompareTo(b);
        });

        var plain = !table.MayHoldChunks;
        var puts = new List<LiteDB.BsonDocument>(_operations.Count);
        var deletes = new List<LiteDB.BsonValue>();
        for (var i = 0; i < _operations.Count; i++)
        {
            var operation = batch.Operation(_operations[i]);
            var key = batch.First(operation);
            if (i + 1 < _operations.Count && key.SequenceEqual(batch.First(batch.Operation(_operations[i + 1]))))
            {
                continue;
            }

            var simple = plain && !LiteDbKeys.IsLong(key);
            if (operation.Kind == BatchEntryKind.Delete)
            {
                if (simple)
                {
                    deletes.Add(new LiteDB.BsonValue(key.ToArray()));
                }
                else
                {
                    table.Delete(key);
                }
            }
            else if (simple && LiteDbTable.TryInlineDocument(key, batch.Second(operation), out var doc))
            {
                puts.Add(doc);
            }
            else
            {
                table.Put(key, batch.Second(operation));
            }
        }

        table.PutDocuments(puts);
        table.DeleteIds(deletes);
        _operations.Clear();
    }
}
