using System.Buffers.Binary;

namespace DataStore.Packed;

/// <summary>One index entry: where a block lies, its CRC-32C, where its first key is and how many pairs it holds.</summary>
internal readonly record struct PackedBlockEntry(long Offset, uint Length, uint Crc, long KeyOffset, int KeyLength, int Pairs)
{
    /// <summary>Writes the entry into <paramref name="destination"/> (<see cref="PackedFormat.IndexEntryLength"/> bytes).</summary>
    public void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, Offset);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[8..], Length);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[12..], Crc);
        BinaryPrimitives.WriteInt64LittleEndian(destination[16..], KeyOffset);
        BinaryPrimitives.WriteInt32LittleEndian(destination[24..], KeyLength);
        BinaryPrimitives.WriteInt32LittleEndian(destination[28..], Pairs);
    }

    /// <summary>Reads an entry from <paramref name="source"/>.</summary>
    public static PackedBlockEntry Read(ReadOnlySpan<byte> source) => new(
        BinaryPrimitives.ReadInt64LittleEndian(source),
        BinaryPrimitives.ReadUInt32LittleEndian(source[8..]),
        BinaryPrimitives.ReadUInt32LittleEndian(source[12..]),
        BinaryPrimitives.ReadInt64LittleEndian(source[16..]),
        BinaryPrimitives.ReadInt32LittleEndian(source[24..]),
        BinaryPrimitives.ReadInt32LittleEndian(source[28..]));
}
