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
internal sealed partial class LiteDbTable(LiteEngine engine, LiteDbKeys keys)
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

    [ThreadStatic]
    private static BsonExpression? t_from;

    [ThreadStatic]
    private static BsonExpression? t_between;

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
        var byId = t_byId ??= BsonExpression.Create("_id = @0", BsonValue.Null);
        byId.Parameters["0"] = new BsonValue(Array.Empty<byte>());
        foreach (var name in new[] { Pairs, Chunks })
        {
            using var reader = engine.Query(name, new Query { Where = { byId } });
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
    /// <remarks>The thread's parsed expression is reused (as in <see cref="FindById"/>): a thread has one range reader open at a time.</remarks>
    public IBsonDataReader Range(byte[] low, byte[]? high)
    {
        BsonExpression where;
        if (high is null)
        {
            where = t_from ??= BsonExpression.Create("_id >= @0", BsonValue.Null);
        }
        else
        {
            where = t_between ??= BsonExpression.Create("_id BETWEEN @0 AND @1", BsonValue.Null, BsonValue.Null);
            where.Parameters["1"] = new BsonValue(high);
        }

        where.Parameters["0"] = new BsonValue(low);
        return engine.Query(Pairs, new Query { Where = { where } });
    }

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
}
