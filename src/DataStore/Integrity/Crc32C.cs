using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;

namespace DataStore.Integrity;

/// <summary>CRC-32C (Castagnoli), hardware-accelerated where the CPU has it (SSE 4.2, ARMv8 CRC), fed in pieces.</summary>
/// <remarks>
/// The CRC instruction takes a few cycles to give its result but can start one each cycle, so one chain of it over a
/// large value runs at a third of the speed the CPU allows: <see cref="Append"/> runs three chains over three pieces
/// of a long input at once and joins their results (the CRC of a piece followed by n zero bytes is its CRC times
/// x^(8n), modulo the polynomial), as Intel's and Mark Adler's CRC-32C code do.
/// </remarks>
internal static class Crc32C
{
    /// <summary>The state to start from.</summary>
    public const uint Seed = ~0u;

    /// <summary>The polynomial, bit-reflected as the CRC instruction takes it (bit 31 is x^0).</summary>
    private const uint Polynomial = 0x82F63B78;

    /// <summary>The pieces of a long input run as three chains; a shorter rest in three of <see cref="ShortPiece"/>, then one chain.</summary>
    private const int LongPiece = 4096;

    private const int ShortPiece = 1024;

    private static readonly uint[] LongShift = ShiftTable(PowerOfX(8 * LongPiece));
    private static readonly uint[] ShortShift = ShiftTable(PowerOfX(8 * ShortPiece));

    /// <summary>Feeds <paramref name="data"/> into the running <paramref name="crc"/>.</summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        while (data.Length >= 3 * LongPiece)
        {
            crc = AppendThree(crc, data, LongPiece, LongShift);
            data = data[(3 * LongPiece)..];
        }

        if (data.Length >= 3 * ShortPiece)
        {
            crc = AppendThree(crc, data, ShortPiece, ShortShift);
            data = data[(3 * ShortPiece)..];
        }

        while (data.Length >= sizeof(ulong))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt64LittleEndian(data));
            data = data[sizeof(ulong)..];
        }

        return AppendTail(crc, data);
    }

    /// <summary>
    /// Copies <paramref name="source"/> to the start of <paramref name="destination"/> and feeds it into the running
    /// <paramref name="crc"/> in the same pass: each word is read once, for both (a large value read from memory it is
    /// not cached in is read once, not once for the check and again for the copy).
    /// </summary>
    public static uint AppendCopy(uint crc, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        destination = destination[..source.Length];
        while (source.Length >= 3 * LongPiece)
        {
            crc = AppendThreeCopy(crc, source, destination, LongPiece, LongShift);
            source = source[(3 * LongPiece)..];
            destination = destination[(3 * LongPiece)..];
        }

        if (source.Length >= 3 * ShortPiece)
        {
            crc = AppendThreeCopy(crc, source, destination, ShortPiece, ShortShift);
            source = source[(3 * ShortPiece)..];
            destination = destination[(3 * ShortPiece)..];
        }

        while (source.Length >= sizeof(ulong))
        {
            var word = BinaryPrimitives.ReadUInt64LittleEndian(source);
            BinaryPrimitives.WriteUInt64LittleEndian(destination, word);
            crc = BitOperations.Crc32C(crc, word);
            source = source[sizeof(ulong)..];
            destination = destination[sizeof(ulong)..];
        }

        source.CopyTo(destination);
        return AppendTail(crc, source);
    }

    /// <summary>
    /// Feeds three separate inputs into their own running states at once, three chains in flight: short inputs (a
    /// scan's pairs) then cost the instruction's rate, not three times its latency. Each result is what
    /// <see cref="Append"/> gives for its input alone.
    /// </summary>
    public static void AppendEach(ref uint a, ReadOnlySpan<byte> x, ref uint b, ReadOnlySpan<byte> y, ref uint c, ReadOnlySpan<byte> z)
    {
        var words = Math.Min(x.Length, Math.Min(y.Length, z.Length)) / sizeof(ulong);
        var first = MemoryMarshal.Cast<byte, ulong>(x)[..words];
        var second = MemoryMarshal.Cast<byte, ulong>(y)[..words];
        var third = MemoryMarshal.Cast<byte, ulong>(z)[..words];
        ulong p = a, q = b, r = c;
        for (var i = 0; i < first.Length; i++)
        {
            p = Step(p, first[i]);
            q = Step(q, second[i]);
            r = Step(r, third[i]);
        }

        var done = words * sizeof(ulong);
        a = AppendRest((uint)p, x[done..]);
        b = AppendRest((uint)q, y[done..]);
        c = AppendRest((uint)r, z[done..]);
    }

    // What one of AppendEach's inputs has left: a few bytes for pairs of one size (no call into Append's loops), or more.
    private static uint AppendRest(uint crc, ReadOnlySpan<byte> rest) => rest.Length < sizeof(ulong) ? AppendTail(crc, rest) : Append(crc, rest);

    // The first 3 * piece bytes of data as three chains of piece bytes each; shift multiplies by x^(8 * piece).
    private static uint AppendThree(uint crc, ReadOnlySpan<byte> data, int piece, uint[] shift)
    {
        var first = Words(data, 0, piece);
        var second = Words(data, 1, piece);
        var third = Words(data, 2, piece);
        ulong a = crc, b = 0, c = 0;
        for (var i = 0; i < first.Length; i++)
        {
            a = Step(a, first[i]);
            b = Step(b, second[i]);
            c = Step(c, third[i]);
        }

        return Join(shift, a, b, c);
    }

    // As AppendThree, copying each word to the same place in destination as it is read.
    private static uint AppendThreeCopy(uint crc, ReadOnlySpan<byte> source, Span<byte> destination, int piece, uint[] shift)
    {
        var first = Words(source, 0, piece);
        var second = Words(source, 1, piece);
        var third = Words(source, 2, piece);
        var firstCopy = MemoryMarshal.Cast<byte, ulong>(destination[..piece]);
        var secondCopy = MemoryMarshal.Cast<byte, ulong>(destination.Slice(piece, piece));
        var thirdCopy = MemoryMarshal.Cast<byte, ulong>(destination.Slice(2 * piece, piece));
        ulong a = crc, b = 0, c = 0;
        for (var i = 0; i < first.Length; i++)
        {
            var (x, y, z) = (first[i], second[i], third[i]);
            firstCopy[i] = x;
            secondCopy[i] = y;
            thirdCopy[i] = z;
            a = Step(a, x);
            b = Step(b, y);
            c = Step(c, z);
        }

        return Join(shift, a, b, c);
    }

    private static ReadOnlySpan<ulong> Words(ReadOnlySpan<byte> data, int index, int piece) => MemoryMarshal.Cast<byte, ulong>(data.Slice(index * piece, piece));

    // The state after three pieces whose chains ended in a, b and c (b and c started from zero).
    private static uint Join(uint[] shift, ulong a, ulong b, ulong c) => Shift(shift, Shift(shift, (uint)a) ^ (uint)b) ^ (uint)c;

    // One 8-byte step; on x64 the state stays a 64-bit register (the 32-bit form costs a zero-extension in each chain).
    private static ulong Step(ulong crc, ulong word)
    {
        var little = BitConverter.IsLittleEndian ? word : BinaryPrimitives.ReverseEndianness(word);
        return Sse42.X64.IsSupported ? Sse42.X64.Crc32(crc, little) : BitOperations.Crc32C((uint)crc, little);
    }

    // crc times the table's power of x, a byte of crc at a time: the product is linear in crc.
    private static uint Shift(uint[] table, uint crc) =>
        table[(byte)crc] ^ table[256 + (byte)(crc >> 8)] ^ table[512 + (byte)(crc >> 16)] ^ table[768 + (crc >> 24)];

    private static uint[] ShiftTable(uint power)
    {
        var table = new uint[4 * 256];
        for (var i = 0; i < table.Length; i++)
        {
            table[i] = Multiply(power, (uint)(i % 256) << (8 * (i / 256)));
        }

        return table;
    }

    // x^power modulo the polynomial (a CRC state that many bits of zeros later, from x^0).
    private static uint PowerOfX(int power)
    {
        var p = 1u << 31;
        for (var i = 0; i < power; i++)
        {
            p = (p & 1) != 0 ? (p >> 1) ^ Polynomial : p >> 1;
        }

        return p;
    }

    // a times b modulo the polynomial, both bit-reflected; a is not zero.
    private static uint Multiply(uint a, uint b)
    {
        var product = 0u;
        for (var m = 1u << 31; ; m >>= 1)
        {
            if ((a & m) != 0)
            {
                product ^= b;
                if ((a & (m - 1)) == 0)
                {
                    return product;
                }
            }

            b = (b & 1) != 0 ? (b >> 1) ^ Polynomial : b >> 1;
        }
    }

    /// <summary>The finished CRC of a running state.</summary>
    public static uint Finish(uint crc) => ~crc;

    // Under 8 bytes left: at most one 4-, one 2- and one 1-byte step (the instruction takes wider words least
    // significant byte first, so this is the same CRC as byte by byte, in fewer dependent steps).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint AppendTail(uint crc, ReadOnlySpan<byte> data)
    {
        if (data.Length >= sizeof(uint))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt32LittleEndian(data));
            data = data[sizeof(uint)..];
        }

        if (data.Length >= sizeof(ushort))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt16LittleEndian(data));
            data = data[sizeof(ushort)..];
        }

        return data.IsEmpty ? crc : BitOperations.Crc32C(crc, data[0]);
    }
}
