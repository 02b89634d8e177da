using System.Buffers.Binary;

namespace DataStore.Packed;

/// <summary>The fixed-size record at the end of a packed file: where the index is and what the file holds.</summary>
internal readonly record struct PackedFooter(long IndexOffset, long IndexLength, long BlockCount, long PairCount, long KeyBytes, long ValueBytes, uint IndexCrc)
{
    /// <summary>Writes the footer, its CRC and the closing magic into <paramref name="destination"/> (<see cref="PackedFormat.FooterLength"/> bytes).</summary>
    public void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, IndexOffset);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], IndexLength);
        BinaryPrimitives.WriteInt64LittleEndian(destination[16..], BlockCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[24..], PairCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[32..], KeyBytes);
        BinaryPrimitives.WriteInt64LittleEndian(destination[40..], ValueBytes);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[48..], IndexCrc);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[52..], PackedFormat.Crc(destination[..52]));
        PackedFormat.Magic.CopyTo(destination[56..]);
    }

    /// <summary>Reads the footer from the last <see cref="PackedFormat.FooterLength"/> bytes; null when its CRC or magic does not match.</summary>
    public static PackedFooter? Read(ReadOnlySpan<byte> source)
    {
        if (!source[56..].SequenceEqual(PackedFormat.Magic)
            || BinaryPrimitives.ReadUInt32LittleEndian(source[52..]) != PackedFormat.Crc(source[..52]))
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
            BinaryPrimitives.ReadUInt32LittleEndian(source[48..]));
    }
}
