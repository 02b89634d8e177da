using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;

namespace DataStore.Sqlite.Pages;

/// <summary>
/// The 64-bit checksum kept in the last <see cref="Size"/> bytes of every page of a checked SQLite database (ADR 0023):
/// four independent multiply-rotate lanes over the page's 8-byte words, folded with the page number and length. It
/// runs at a few bytes per cycle (no lane waits on another's multiply); a page of zeros does not check.
/// </summary>
internal static class PageChecksum
{
    /// <summary>Bytes the checksum takes at the end of each page: the database's reserved bytes per page.</summary>
    public const int Size = 8;

    private const ulong Multiplier = 0x9E3779B97F4A7C15;
    private const ulong Stir = 0xD6E8FEB86659FD93;

    /// <summary>Writes the checksum of <paramref name="page"/> (page number <paramref name="number"/>) into its last 8 bytes.</summary>
    public static void Store(Span<byte> page, long number) =>
        BinaryPrimitives.WriteUInt64LittleEndian(page[^Size..], Compute(page[..^Size], number));

    /// <summary>True when the last 8 bytes of <paramref name="page"/> hold the checksum of the rest.</summary>
    public static bool Matches(ReadOnlySpan<byte> page, long number) =>
        BinaryPrimitives.ReadUInt64LittleEndian(page[^Size..]) == Compute(page[..^Size], number);

    /// <summary>The checksum of <paramref name="content"/> (a multiple of 8 bytes) as page <paramref name="number"/>.</summary>
    public static ulong Compute(ReadOnlySpan<byte> content, long number)
    {
        var words = MemoryMarshal.Cast<byte, ulong>(content);
        ulong a = 0x243F6A8885A308D3 ^ (ulong)number, b = 0x13198A2E03707344, c = 0xA4093822299F31D0, d = 0x082EFA98EC4E6C89;
        var i = 0;
        for (; i + 4 <= words.Length; i += 4)
        {
            a = Lane(a, words[i]);
            b = Lane(b, words[i + 1]);
            c = Lane(c, words[i + 2]);
            d = Lane(d, words[i + 3]);
        }

        for (; i < words.Length; i++)
        {
            a = Lane(a, words[i]);
        }

        var h = BitOperations.RotateLeft(a, 1) + BitOperations.RotateLeft(b, 17) + BitOperations.RotateLeft(c, 31) + BitOperations.RotateLeft(d, 47);
        h ^= (ulong)content.Length;
        h = (h ^ (h >> 31)) * Stir;
        h = (h ^ (h >> 29)) * Multiplier;
        return h ^ (h >> 32);
    }

    private static ulong Lane(ulong lane, ulong word)
    {
        word = BitConverter.IsLittleEndian ? word : BinaryPrimitives.ReverseEndianness(word);
        return BitOperations.RotateLeft(lane ^ (word * Stir), 27) * Multiplier;
    }
}
