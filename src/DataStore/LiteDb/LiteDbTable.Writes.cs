using LiteDB;

namespace DataStore.LiteDb;

// The writing side of the table: every member runs inside the writer's explicit LiteDB transaction.
internal sealed partial class LiteDbTable
{
    /// <summary>Inserts or overwrites a pair. Call inside the writer's transaction.</summary>
    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        BsonDocument? old;
        byte[] id;
        byte[]? whole = null;
        if (LiteDbKeys.IsLong(key))
        {
            whole = key.ToArray();
            (old, id) = LongSlot(whole);
        }
        else
        {
            id = key.ToArray();
            old = MayHoldChunks ? FindById(id) : null;
        }

        if (old is not null)
        {
            _chunks.Delete(old);
        }

        var doc = new BsonDocument { ["_id"] = new BsonValue(id) };
        if (whole is not null)
        {
            doc["k"] = new BsonValue(whole);
        }

        if ((long)key.Length + value.Length <= InlineLimit)
        {
            doc["v"] = new BsonValue(value.ToArray());
        }
        else
        {
            MayHoldChunks = true;
            doc["b"] = new BsonValue(_chunks.Write(value));
            doc["n"] = new BsonValue(value.Length);
        }

        doc["c"] = new BsonValue(unchecked((int)Integrity.PairChecksum.Compute(key, value)));
        engine.Upsert(Pairs, [doc], BsonAutoId.ObjectId);
    }

    /// <summary>
    /// The document of a short key's pair whose value fits inline, for <see cref="PutDocuments"/>; false when the pair
    /// needs <see cref="Put"/> (a long key, or a value stored in chunks).
    /// </summary>
    public static bool TryInlineDocument(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out BsonDocument? doc)
    {
        if (LiteDbKeys.IsLong(key) || (long)key.Length + value.Length > InlineLimit)
        {
            doc = null;
            return false;
        }

        doc = new BsonDocument
        {
            ["_id"] = new BsonValue(key.ToArray()),
            ["v"] = new BsonValue(value.ToArray()),
            ["c"] = new BsonValue(unchecked((int)Integrity.PairChecksum.Compute(key, value))),
        };
        return true;
    }

    /// <summary>
    /// Inserts or overwrites the documents of <see cref="TryInlineDocument"/> in one call, when no stored value is in
    /// chunks (so no old document needs its chunks removed). Call inside the writer's transaction.
    /// </summary>
    public void PutDocuments(List<BsonDocument> docs)
    {
        if (docs.Count > 0)
        {
            engine.Upsert(Pairs, docs, BsonAutoId.ObjectId);
        }
    }

    /// <summary>Removes short keys' documents in one call, when no stored value is in chunks. Call inside the writer's transaction.</summary>
    public void DeleteIds(List<BsonValue> ids)
    {
        if (ids.Count > 0)
        {
            engine.Delete(Pairs, ids);
        }
    }

    /// <summary>Removes a key if present. Call inside the writer's transaction.</summary>
    public void Delete(ReadOnlySpan<byte> key)
    {
        if (!LiteDbKeys.IsLong(key) && !MayHoldChunks)
        {
            engine.Delete(Pairs, [new BsonValue(key.ToArray())]);
            return;
        }

        if (Find(key) is { } doc)
        {
            _chunks.Delete(doc);
            engine.Delete(Pairs, [doc["_id"]]);
        }
    }

    /// <summary>Removes every key in [start, end) (empty bounds are open) and returns how many. Call inside the writer's transaction.</summary>
    public long DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var ids = new List<BsonValue>();
        var chunked = new List<BsonDocument>();
        using (var reader = Range(LiteDbKeys.LowId(start), end.IsEmpty ? null : LiteDbKeys.HighId(end)))
        {
            while (reader.Read())
            {
                var doc = reader.Current.AsDocument;
                var key = KeyOf(doc);
                if (key.AsSpan().SequenceCompareTo(start) < 0 || (!end.IsEmpty && key.AsSpan().SequenceCompareTo(end) >= 0))
                {
                    continue;
                }

                ids.Add(doc["_id"]);
                if (IsChunked(doc))
                {
                    chunked.Add(doc);
                }
            }
        }

        foreach (var doc in chunked)
        {
            _chunks.Delete(doc);
        }

        return ids.Count == 0 ? 0 : engine.Delete(Pairs, ids);
    }

    /// <summary>Checks a precondition: the key is absent (<paramref name="expected"/> null) or holds exactly <paramref name="expected"/>.</summary>
    public bool Holds(ReadOnlySpan<byte> key, ReadOnlySpan<byte> expected, bool mustBeAbsent)
    {
        var doc = Find(key);
        if (mustBeAbsent || doc is null)
        {
            return mustBeAbsent && doc is null;
        }

        if (ValueLength(doc) != expected.Length)
        {
            return false;
        }

        if (!IsChunked(doc))
        {
            return CheckedInlineValue(doc, key).AsSpan().SequenceEqual(expected);
        }

        var value = new byte[expected.Length];
        if (!_chunks.TryCopy(doc, value))
        {
            return false;
        }

        ThrowIfDamaged(doc, key, value);
        return value.AsSpan().SequenceEqual(expected);
    }

    /// <summary>The existing document and id of a long key, or null and the id to give it.</summary>
    private (BsonDocument? Old, byte[] Id) LongSlot(byte[] key)
    {
        var highest = -1;
        foreach (var doc in Collisions(key))
        {
            var id = doc["_id"].AsBinary;
            if (doc["k"].AsBinary.AsSpan().SequenceEqual(key))
            {
                return (doc, id);
            }

            highest = Math.Max(highest, LiteDbKeys.Number(id));
        }

        if (highest == MaxCollisions)
        {
            throw new InvalidOperationException($"{MaxCollisions + 1} long keys share their first {LiteDbKeys.Direct} bytes and their hash.");
        }

        return (null, keys.LongId(key, highest + 1));
    }
}
