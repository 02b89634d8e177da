namespace DataStore.Packed;

/// <summary>
/// One pair inside a block: <c>varint shared, varint suffix length, varint value length, suffix, value</c>, where
/// the key is the previous key's first <see cref="Shared"/> bytes followed by the suffix (0 for a block's first pair).
/// </summary>
internal readonly struct PackedEntry
{
    private PackedEntry(int shared, int suffixStart, int suffixLength, int valueStart, int valueLength)
    {
        Shared = shared;
        SuffixStart = suffixStart;
        SuffixLength = suffixLength;
        ValueStart = valueStart;
        ValueLength = valueLength;
    }

    public int Shared { get; }

    public int SuffixStart { get; }

    public int SuffixLength { get; }

    public int ValueStart { get; }

    public int ValueLength { get; }

    /// <summary>Where the next entry starts.</summary>
    public int End => ValueStart + ValueLength;

    /// <summary>Reads the entry at <paramref name="position"/> of a checked block.</summary>
    public static PackedEntry Read(ReadOnlySpan<byte> block, int position)
    {
        var shared = ReadLength(block, ref position);
        var suffixLength = ReadLength(block, ref position);
        var valueLength = ReadLength(block, ref position);
        return new PackedEntry(shared, position, suffixLength, position + suffixLength, valueLength);
    }

    private static int ReadLength(ReadOnlySpan<byte> block, ref int position)
    {
        uint value = 0;
        for (var shift = 0; ; shift += 7)
        {
            var b = block[position++];
            value |= (uint)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return (int)value;
            }
        }
    }
}
