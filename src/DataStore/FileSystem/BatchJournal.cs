using System.Buffers.Binary;
using DataStore.Batches;

namespace DataStore.FileSystem;

/// <summary>
/// The journal a batch is written to before any of it applies: magic <c>DSJ1</c>, the operation count, each
/// operation (kind, first byte string, second byte string, each length-prefixed), then a CRC-32C of all of it. A store
/// with the change feed on writes <c>DSJ2</c>, which holds the commit's sequence after the count (ADR 0020), so that
/// recovery can append the commit's change-log record exactly once.
/// It is flushed and renamed into place as <c>journal</c>, so it exists whole or not at all; whoever next holds the
/// write lock after a crash replays it.
/// </summary>
internal static class BatchJournal
{
    public const string FileName = "journal";
    private const uint Magic = 0x314A5344; // "DSJ1"
    private const uint SequencedMagic = 0x324A5344; // "DSJ2"

    /// <summary>One journaled operation.</summary>
    public readonly record struct Operation(BatchEntryKind Kind, byte[] First, byte[] Second);

    /// <summary>Writes the operations of <paramref name="batch"/> to <paramref name="temporary"/>, flushed to disk, then renames it to <paramref name="journal"/>.</summary>
    /// <param name="batch">The batch.</param>
    /// <param name="temporary">A fresh temporary file in the store.</param>
    /// <param name="journal">The journal's path.</param>
    /// <param name="sequence">The commit's change-feed sequence, or 0 when the store has no change feed.</param>
    public static void Write(WriteBatch batch, string temporary, string journal, long sequence = 0)
    {
        using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete, 1 << 16))
        {
            var crc = uint.MaxValue;
            Span<byte> word = stackalloc byte[16];
            BinaryPrimitives.WriteUInt32LittleEndian(word, sequence > 0 ? SequencedMagic : Magic);
            BinaryPrimitives.WriteInt32LittleEndian(word[4..], batch.OperationCount);
            BinaryPrimitives.WriteInt64LittleEndian(word[8..], sequence);
            crc = Append(file, word[..(sequence > 0 ? 16 : 8)], crc);
            for (var i = 0; i < batch.OperationCount; i++)
            {
                var entry = batch.Operation(i);
                word[0] = (byte)entry.Kind;
                crc = Append(file, word[..1], crc);
                crc = AppendBytes(file, batch.First(entry), crc, word);
                crc = AppendBytes(file, batch.Second(entry), crc, word);
            }

            BinaryPrimitives.WriteUInt32LittleEndian(word, ~crc);
            file.Write(word[..4]);
            file.Flush(flushToDisk: true);
        }

        File.Move(temporary, journal, overwrite: true);
    }

    /// <summary>
    /// Reads the journal at <paramref name="path"/>; null when it is damaged (it never finished being written, so nothing of it
    /// applied). <paramref name="sequence"/> is the commit's change-feed sequence, 0 when it has none.
    /// </summary>
    public static List<Operation>? Read(string path, out long sequence)
    {
        sequence = 0;
        var data = File.ReadAllBytes(path);
        var magic = data.Length >= 4 ? BinaryPrimitives.ReadUInt32LittleEndian(data) : 0;
        var header = magic == SequencedMagic ? 16 : 8;
        if (data.Length < header + 4 || (magic != Magic && magic != SequencedMagic) ||
            ~KeyFile.Crc(uint.MaxValue, data.AsSpan(0, data.Length - 4)) != BinaryPrimitives.ReadUInt32LittleEndian(data.AsSpan(data.Length - 4)))
        {
            return null;
        }

        var count = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(4));
        sequence = header == 16 ? BinaryPrimitives.ReadInt64LittleEndian(data.AsSpan(8)) : 0;
        var operations = new List<Operation>(count);
        var position = header;
        for (var i = 0; i < count; i++)
        {
            var kind = (BatchEntryKind)data[position++];
            var first = Take(data, ref position);
            var second = Take(data, ref position);
            operations.Add(new Operation(kind, first, second));
        }

        return operations;
    }

    /// <summary>The batch that <paramref name="operations"/> were journaled from (to describe a recovered commit in the change log).</summary>
    public static WriteBatch ToBatch(List<Operation> operations)
    {
        var batch = new WriteBatch();
        foreach (var operation in operations)
        {
            _ = operation.Kind switch
            {
                BatchEntryKind.Put => batch.Put(operation.First, operation.Second),
                BatchEntryKind.Delete => batch.Delete(operation.First),
                BatchEntryKind.DeletePrefix => batch.DeletePrefix(operation.First),
                _ => batch.DeleteRange(operation.First, operation.Second),
            };
        }

        return batch;
    }

    private static byte[] Take(byte[] data, ref int position)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(position));
        position += 4;
        var bytes = data.AsSpan(position, length).ToArray();
        position += length;
        return bytes;
    }

    private static uint AppendBytes(FileStream file, ReadOnlySpan<byte> bytes, uint crc, Span<byte> word)
    {
        BinaryPrimitives.WriteInt32LittleEndian(word, bytes.Length);
        crc = Append(file, word[..4], crc);
        return Append(file, bytes, crc);
    }

    private static uint Append(FileStream file, ReadOnlySpan<byte> bytes, uint crc)
    {
        file.Write(bytes);
        return KeyFile.Crc(crc, bytes);
    }
}
