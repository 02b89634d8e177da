using System.Buffers.Binary;
using LiteDB;
using LiteDB.Engine;

namespace DataStore.LiteDb;

/// <summary>
/// Values too large for one document, as 1 MiB documents in the <c>chunks</c> collection: <c>_id</c> = a random
/// 16-byte blob id + 4-byte big-endian index, <c>d</c> = the bytes. The key's document holds the blob id
/// (<c>b</c>) and the length (<c>n</c>). Blob ids are never reused, so a value's chunks are complete exactly
/// when all of them are found.
/// </summary>
internal sealed class LiteDbChunks(LiteEngine engine)
{
    public const int ChunkSize = 1 << 20;

    /// <summary>Writes <paramref name="value"/> as chunks under a new blob id and returns the id. Call inside the writer's transaction.</summary>
    public byte[] Write(ReadOnlySpan<byte> value)
    {
        var blob = Guid.NewGuid().ToByteArray();
        for (var i = 0; i * (long)ChunkSize < value.Length; i++)
        {
            var piece = value.Slice(i * ChunkSize, Math.Min(ChunkSize, value.Length - (i * ChunkSize)));
            engine.Insert(LiteDbTable.Chunks, [new BsonDocument { ["_id"] = new BsonValue(ChunkId(blob, i)), ["d"] = new BsonValue(piece.ToArray()) }], BsonAutoId.ObjectId);
        }

        return blob;
    }

    /// <summary>
    /// Copies a document's value into <paramref name="destination"/> (at least <see cref="LiteDbTable.ValueLength"/> long);
    /// false when its chunks are gone (the key was overwritten after the document was read).
    /// </summary>
    public bool TryCopy(BsonDocument doc, Span<byte> destination)
    {
        if (!LiteDbTable.IsChunked(doc))
        {
            doc["v"].AsBinary.CopyTo(destination);
            return true;
        }

        var blob = doc["b"].AsBinary;
        var length = doc["n"].AsInt32;
        var count = ChunkCount(length);
        var copied = 0;
        var expected = 0;
        using var reader = engine.Query(LiteDbTable.Chunks, new Query
        {
            Where = { BsonExpression.Create("_id BETWEEN @0 AND @1", new BsonValue(ChunkId(blob, 0)), new BsonValue(ChunkId(blob, count - 1))) },
        });
        while (reader.Read())
        {
            var chunk = reader.Current.AsDocument;
            if (!chunk["_id"].AsBinary.AsSpan().SequenceEqual(ChunkId(blob, expected)))
            {
                return false;
            }

            var data = chunk["d"].AsBinary;
            if (copied + data.Length > length)
            {
                return false;
            }

            data.CopyTo(destination[copied..]);
            copied += data.Length;
            expected++;
        }

        return expected == count && copied == length;
    }

    /// <summary>Removes the chunks of a document's value, if it has any. Call inside the writer's transaction.</summary>
    public void Delete(BsonDocument doc)
    {
        if (!LiteDbTable.IsChunked(doc))
        {
            return;
        }

        var blob = doc["b"].AsBinary;
        var count = ChunkCount(doc["n"].AsInt32);
        engine.Delete(LiteDbTable.Chunks, Enumerable.Range(0, count).Select(i => new BsonValue(ChunkId(blob, i))));
    }

    private static int ChunkCount(int length) => (int)((length + (long)ChunkSize - 1) / ChunkSize);

    private static byte[] ChunkId(byte[] blob, int index)
    {
        var id = new byte[blob.Length + 4];
        blob.CopyTo(id, 0);
        BinaryPrimitives.WriteInt32BigEndian(id.AsSpan(blob.Length), index);
        return id;
    }
}
