using System.Buffers.Binary;
using DataStore.Batches;

namespace DataStore.FileSystem;

/// <summary>
/// The journal a batch is written to before any of it applies: magic <c>DSJ1</c>, the operation count, each
/// operation (kind, first byte string, second byte string, each length-prefixed), then a CRC-32C of all of it.
/// It is flushed and renamed into place as <c>journal</c>, so it exists whole or not at all; whoever next holds the
/// write lock after a crash replays it.
/// </summary>
internal static class BatchJournal
{
    public const string FileName = "journal";
    private const uint Magic = 0x314A5344; // "DSJ1"

    /// <summary>One journaled operation.</summary>
    public readonly record struct Operation(BatchEntryKind Kind, byte[] First, byte[] Second);

    /// <summary>Writes the operations of <paramref name="batch"/> to <paramref name="temporary"/>, flushed to disk, then renames it to <paramref name="journal"/>.</summary>
    public static void Write(WriteBatch batch, string temporary, string journal)
    {
        using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete, 1 << 16))
        {
            var crc = uint.MaxValue;
            Span<byte> word = stackalloc byte[9];
            BinaryPrimitives.WriteUInt32LittleEndian(word, Magic);
            BinaryPrimitives.WriteInt32LittleEndian(word[4..], batch.OperationCount);
            crc = Append(file, word[..8], crc);
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

    /// <summary>Reads the journal at <paramref name="path"/>; null when it is damaged (it never finished being written, so nothing of it applied).</summary>
    public static List<Operation>? Read(string path)
    {
        var data = File.ReadAllBytes(path);
        if (data.Length < 12 || BinaryPrimitives.ReadUInt32LittleEndian(data) != Magic ||
            ~KeyFile.Crc(uint.MaxValue, data.AsSpan(0, data.Length - 4)) != BinaryPrimitives.ReadUInt32LittleEndian(data.AsSpan(data.Length - 4)))
        {
            return null;
        }

        var count = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(4));
        var operations = new List<Operation>(count);
        var position = 8;
        for (var i = 0; i < count; i++)
        {
            var kind = (BatchEntryKind)data[position++];
            var first = Take(data, ref position);
            var second = Take(data, ref position);
            operations.Add(new Operation(kind, first, second));
        }

        return operations;
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
