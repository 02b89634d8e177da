using System.Buffers.Binary;
using System.Numerics;

namespace DataStore.Packed;

/// <summary>
/// The hash table of a packed file: the 64-bit hash of a key (defined in docs/packed-format.md, so it never changes
/// with the runtime), where its probe starts, and the 8-byte slot that points at the pair: tag, block, offset.
/// </summary>
internal static class PackedHash
{
    private const ulong Multiplier = 0x9E3779B97F4A7C15;
    private const int OffsetBits = 12;
    private const int TagShift = 44;
    private const ulong TagMark = 1UL << 19;

    /// <summary>The slots a table of <paramref name="pairs"/> keys gets: one and a half per key, so a probe is short.</summary>
    public static long SlotsFor(long pairs) => pairs == 0 ? 0 : checked(pairs + (pairs >> 1) + 1);

    /// <summary>The hash of <paramref name="key"/>: 8-byte little-endian words mixed by multiply and rotate, finished by a murmur3 avalanche.</summary>
    public static ulong Of(ReadOnlySpan<byte> key)
    {
        var h = Multiplier ^ ((ulong)key.Length * 0xC2B2AE3D27D4EB4F);
        var rest = key;
        while (rest.Length >= 8)
        {
            h = Mix(h, BinaryPrimitives.ReadUInt64LittleEndian(rest));
            rest = rest[8..];
        }

        if (!rest.IsEmpty)
        {
            // The last 8 bytes of the key (overlapping the words already mixed) or, for a key under 8 bytes, its bytes.
            h = Mix(h, key.Length >= 8 ? BinaryPrimitives.ReadUInt64LittleEndian(key[^8..]) : Tail(rest));
        }

        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCD;
        h ^= h >> 33;
        h *= 0xC4CEB9FE1A85EC53;
        return h ^ (h >> 33);
    }

    /// <summary>The slot where the probe for <paramref name="hash"/> starts, in a table of <paramref name="slots"/> slots.</summary>
    public static long Home(ulong hash, long slots) => (long)(((hash & 0xFFFFFFFF) * (ulong)slots) >> 32);

    /// <summary>What a build keeps per pair until it lays out the table: the hash's low 32 bits (the home), the tag and the offset; the block is implied by the pair's place.</summary>
    public static ulong Record(ulong hash, int offset) => ((hash & 0xFFFFFFFF) << 32) | (TagOf(hash) << OffsetBits) | (uint)offset;

    /// <summary>The slot of a <see cref="Record"/> for a pair of block <paramref name="block"/>; its probe starts at <c>Home(record >> 32, slots)</c>.</summary>
    public static ulong SlotOf(ulong record, int block) =>
        (((record & 0xFFFFFFFF) >> OffsetBits) << TagShift) | ((ulong)(uint)block << OffsetBits) | (record & ((1 << OffsetBits) - 1));

    /// <summary>True when a slot (never 0: the tag's top bit is set) may hold the key of <paramref name="hash"/>.</summary>
    public static bool SameTag(ulong slot, ulong hash) => slot >> TagShift == TagOf(hash);

    /// <summary>The block a slot points at.</summary>
    public static long BlockOf(ulong slot) => (long)((slot >> OffsetBits) & 0xFFFFFFFF);

    /// <summary>The pair's offset inside its block.</summary>
    public static int OffsetOf(ulong slot) => (int)(slot & ((1 << OffsetBits) - 1));

    private static ulong TagOf(ulong hash) => (hash >> TagShift) | TagMark;

    private static ulong Mix(ulong h, ulong word) => BitOperations.RotateLeft((h ^ word) * Multiplier, 31) * 0xBF58476D1CE4E5B9;

    private static ulong Tail(ReadOnlySpan<byte> rest)
    {
        ulong word = 0;
        for (var i = 0; i < rest.Length; i++)
        {
            word |= (ulong)rest[i] << (8 * i);
        }

        return word;
    }
}
