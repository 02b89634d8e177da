namespace DataStore.Transfer;

/// <summary>Unsigned LEB128 lengths, as the dump and the digest encode them: 7 bits a byte, low bits first.</summary>
internal static class Varint
{
    /// <summary>The most bytes a length up to <see cref="DumpFormat.MaxLength"/> takes.</summary>
    public const int MaxBytes = 5;

    /// <summary>Writes <paramref name="value"/> to the start of <paramref name="destination"/> and returns the bytes written.</summary>
    public static int Write(Span<byte> destination, uint value)
    {
        var i = 0;
        while (value >= 0x80)
        {
            destination[i++] = (byte)(value | 0x80);
            value >>= 7;
        }

        destination[i++] = (byte)value;
        return i;
    }
}
