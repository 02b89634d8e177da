using LiteDB;
using LiteDB.Engine;

namespace DataStore.LiteDb;

/// <summary>
/// The store's two collections: <c>kv</c>, one document per key (<c>_id</c>, <c>k</c> the whole key when it is
/// long, <c>v</c> the value when it fits inline, else <c>b</c> a blob id and <c>n</c> its length), and
/// <c>chunks</c>, the larger values in pieces (<see cref="LiteDbChunks"/>), and <c>c</c> the pair's checksum (ADR 0014).
/// </summary>
/// <remarks>
/// Reads run in whatever LiteDB transaction the calling thread has (a query opens its own otherwise). Writes must
/// run inside the writer's explicit transaction. 
/// </remarks>
internal sealed class LiteDbTable(LiteEngine engine, LiteDbKeys keys)
{
    public const string Pairs = "kv";
    public const string Chunks = "chunks";

    /// <summary>A pair whose key and value together fit in this many bytes is stored in one document.</summary>
    public const int InlineLimit = 1 << 20;

    private const int MaxCollisions = ushort.MaxValue;

    private readonly LiteDbChunks _chunks = new(engine);

    [ThreadStatic]
    private static BsonExpression? t_byId;

    [ThreadStatic]
    private static BsonExpression? t_idOnly;

    /// <summary>Set once any value has been stored in chunks; until then an overwrite need not look for old chunks.</summary>
    public bool MayHoldChunks { get; set; } = true;

    public LiteEngine Engine => engine;

    /// <summary>
    /// True on a store with checksums: a document without <c>c</c> is damaged. Documents written by this version always
    /// carry <c>c</c>, which is checked wherever it is present.
    /// </summary>
    public bool RequireChecksums { get; set; }

    /// <summary>True when <paramref name="value"/>, read from <paramref name="doc"/> for <paramref name="key"/>, matches the document's checksum.</summary>
    public bool Matches(BsonDocument doc, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => doc.TryGetValue("c", out var stored)
        ? stored.IsInt32 && unchecked((uint)stored.AsInt32) == Integrity.PairChecksum.Compute(key, value)
        : !RequireChecksums;

    /// <summary>The inline value of <paramref name="doc"/> after checking it.</summary>
    /// <exception cref="InvalidDataException">The pair does not match its checksum.</exception>
    public byte[] CheckedInlineValue(BsonDocument doc, ReadOnlySpan<byte> key)
    {
        var value = InlineValue(doc);
        ThrowIfDamaged(doc, key, value);
        return value;
    }

    /// <summary>Throws unless the value read for <paramref name="key"/> matches the document's checksum.</summary>
    /// <exception cref="InvalidDataException">The pair does not match its checksum (the caller's error translation names the store).</exception>
    public void ThrowIfDamaged(BsonDocument doc, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (!Matches(doc, key, value))
        {
            throw new InvalidDataException($"the pair stored for key {Transfer.KeyText.Describe(key)} is damaged (its value does not match its checksum); its value is not returned.");
        }
    }

    /// <summary>Creates the collections if missing and learns whether any value is chunked.</summary>
    public void Initialize()
    {
        var existing = engine.GetCollectionNames().ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (var name in new[] { Pairs, Chunks })
        {
            if (!existing.Contains(name))
            {
                LiteDbCreationMarker.Create(engine, name);
            }
            else
            {
                LiteDbCreationMarker.RemoveLeftover(engine, name);
            }
        }

        using var reader = engine.Query(Chunks, new Query { Limit = 1 });
        MayHoldChunks = reader.Read();
    }

    /// <summary>Opens the snapshots of both collections in the current explicit transaction.</summary>
    public void Touch()
    {
        foreach (var name in new[] { Pairs, Chunks })
        {
            using var reader = engine.Query(name, new Query { Where = { BsonExpression.Create("_id = @0", new BsonValue(Array.Empty<byte>())) } });
            reader.Read();
        }
    }

    /// <summary>The document of <paramref name="key"/>, or null.</summary>
    public BsonDocument? Find(ReadOnlySpan<byte> key)
    {
        if (!LiteDbKeys.IsLong(key))
        {
            return FindById(key.ToArray());
        }

        var whole = key.ToArray();
        foreach (var doc in Collisions(whole))
        {
            if (doc["k"].AsBinary.AsSpan().SequenceEqual(whole))
            {
                return doc;
            }
        }

        return null;
    }

    /// <summary>True when <paramref name="key"/> is present; a short key is looked up in the index alone, without reading its document.</summary>
    public bool Contains(ReadOnlySpan<byte> key)
    {
        if (LiteDbKeys.IsLong(key))
        {
            return Find(key) is not null;
        }

        // Selecting only _id, which the query also filters on, lets LiteDB answer from the index (IsIndexKeyOnly).
        var byId = t_byId ??= BsonExpression.Create("_id = @0", BsonValue.Null);
        byId.Parameters["0"] = new BsonValue(key.ToArray());
        using var reader = engine.Query(Pairs, new Query { Where = { byId }, Select = t_idOnly ??= BsonExpression.Create("$._id") });
        return reader.Read();
    }

    public BsonDocument? FindById(byte[] id)
    {
        // Parsing "_id = @0" builds an expression tree each time (LiteDB caches only the compiled delegate), so each
        // thread keeps one parsed expression and sets its parameter; a thread runs one query at a time here.
        var byId = t_byId ??= BsonExpression.Create("_id = @0", BsonValue.Null);
        byId.Parameters["0"] = new BsonValue(id);
        using var reader = engine.Query(Pairs, new Query { Where = { byId } });
        return reader.Read() ? reader.Current.AsDocument : null;
    }

    /// <summary>Every pair with an id in [<paramref name="low"/>, <paramref name="high"/>] (high null: to the end), ascending by id.</summary>
    public IBsonDataReader Range(byte[] low, byte[]? high) => engine.Query(Pairs, new Query
    {
        Where =
        {
            high is null
                ? BsonExpression.Create("_id >= @0", new BsonValue(low))
                : BsonExpression.Create("_id BETWEEN @0 AND @1", new BsonValue(low), new BsonValue(high)),
        },
    });

    /// <summary>The whole key a document holds.</summary>
    public static byte[] KeyOf(BsonDocument doc)
    {
        var id = doc["_id"].AsBinary;
        return LiteDbKeys.IsLongId(id) ? doc["k"].AsBinary : id;
    }

    public static bool IsChunked(BsonDocument doc) => !doc.ContainsKey("v");

    /// <summary>Copies a document's value into <paramref name="destination"/>; false when its chunks are gone (see <see cref="LiteDbChunks.TryCopy"/>).</summary>
    public bool TryCopyValue(BsonDocument doc, Span<byte> destination) => _chunks.TryCopy(doc, destination);

    public static int ValueLength(BsonDocument doc) => IsChunked(doc) ? doc["n"].AsInt32 : doc["v"].AsBinary.Length;

    /// <summary>The inline value of a document that is not chunked.</summary>
    public static byte[] InlineValue(BsonDocument doc) => doc["v"].AsBinary;

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

    /// <summary>The documents whose long keys share <paramref name="key"/>'s run and hash.</summary>
    private List<BsonDocument> Collisions(byte[] key)
    {
        var found = new List<BsonDocument>();
        using var reader = Range(keys.LongId(key, 0), keys.LongId(key, MaxCollisions));
        while (reader.Read())
        {
            found.Add(reader.Current.AsDocument);
        }

        return found;
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
