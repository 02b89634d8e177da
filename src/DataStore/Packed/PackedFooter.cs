using System.Buffers.Binary;

namespace DataStore.Packed;

/// <summary>The fixed-size record at the end of a packed file: where the index region, hash table and page table are, and what the file holds.</summary>
internal readonly record struct PackedFooter(
    long IndexOffset, long HashOffset, long HashSlots, long PageTableOffset, long BlockCount, long PairCount, long KeyBytes, long ValueBytes, int PageLength, uint PageTableCrc)
{
    /// <summary>Writes the footer, its CRC and the closing magic into <paramref name="destination"/> (<see cref="PackedFormat.FooterLength"/> bytes).</summary>
    public void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, IndexOffset);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], HashOffset);
        BinaryPrimitives.WriteInt64LittleEndian(destination[16..], HashSlots);
        BinaryPrimitives.WriteInt64LittleEndian(destination[24..], PageTableOffset);
        BinaryPrimitives.WriteInt64LittleEndian(destination[32..], BlockCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[40..], PairCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[48..], KeyBytes);
        BinaryPrimitives.WriteInt64LittleEndian(destination[56..], ValueBytes);
        BinaryPrimitives.WriteInt32LittleEndian(destination[64..], PageLength);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[68..], PageTableCrc);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[72..], PackedFormat.Crc(destination[..72]));
        BinaryPrimitives.WriteUInt32LittleEndian(destination[76..], 0);
        PackedFormat.Magic.CopyTo(destination[80..]);
    }

    /// <summary>Reads the footer from the last <see cref="PackedFormat.FooterLength"/> bytes; null when its CRC or magic does not match.</summary>
    public static PackedFooter? Read(ReadOnlySpan<byte> source)
    {
        if (!source[80..].SequenceEqual(PackedFormat.Magic)
            || BinaryPrimitives.ReadUInt32LittleEndian(source[72..]) != PackedFormat.Crc(source[..72]))
        {
            return null;
        }

        return new PackedFooter(
            BinaryPrimitives.ReadInt64LittleEndian(source),
            BinaryPrimitives.ReadInt64LittleEndian(source[8..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[16..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[24..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[32..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[40..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[48..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[56..]),
            BinaryPrimitives.ReadInt32LittleEndian(source[64..]),
            BinaryPrimitives.ReadUInt32LittleEndian(source[68..]));
    }
}
