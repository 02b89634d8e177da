using System.Buffers.Binary;
using System.Security.Cryptography;

namespace DataStore.Lmdb;

/// <summary>
/// How keys longer than LMDB's 511-byte limit are stored (ADR 0007). A key of up to <see cref="PlainMax"/> bytes is
/// stored as itself. A longer key is stored under its first <see cref="PlainMax"/> bytes, an 8-byte hash of the whole
/// key and a 2-byte collision counter; its value holds the whole key in front of the value. Such keys sort among the
/// others by their first <see cref="PlainMax"/> bytes, so only long keys sharing those bytes need sorting in memory.
/// </summary>
internal static class LmdbKeys
{
    /// <summary>The longest key stored as itself.</summary>
    public const int PlainMax = 480;

    /// <summary>The stored length of a long key's slot: prefix, hash and counter.</summary>
    public const int SlotLength = PlainMax + HashLength + CounterLength;

    /// <summary>The part of a slot that every slot of the same key shares: prefix and hash.</summary>
    public const int SlotStemLength = PlainMax + HashLength;

    /// <summary>Bytes before the whole key in a long key's stored value (the key's length, little-endian).</summary>
    public const int HeaderLength = 4;

    private const int HashLength = 8;
    private const int CounterLength = 2;

    public static bool IsLong(ReadOnlySpan<byte> key) => key.Length > PlainMax;

    /// <summary>True when a stored key is a long key's slot.</summary>
    public static bool IsSlot(ReadOnlySpan<byte> stored) => stored.Length > PlainMax;

    /// <summary>Writes a long key's slot stem (prefix and hash) into <paramref name="slot"/>, with counter 0.</summary>
    public static void WriteSlot(ReadOnlySpan<byte> key, Span<byte> slot)
    {
        key[..PlainMax].CopyTo(slot);
        Span<byte> hash = stackalloc byte[32];
        SHA256.HashData(key, hash);
        hash[..HashLength].CopyTo(slot[PlainMax..]);
        SetCounter(slot, 0);
    }

    public static int Counter(ReadOnlySpan<byte> slot) => BinaryPrimitives.ReadUInt16BigEndian(slot[SlotStemLength..]);

    public static void SetCounter(Span<byte> slot, int counter) => BinaryPrimitives.WriteUInt16BigEndian(slot[SlotStemLength..], checked((ushort)counter));

    /// <summary>The whole key of a stored pair.</summary>
    /// <exception cref="LmdbException">A long-key record is damaged (<c>MDB_CORRUPTED</c>).</exception>
    public static ReadOnlySpan<byte> FullKey(ReadOnlySpan<byte> stored, ReadOnlySpan<byte> data) =>
        IsSlot(stored) ? data.Slice(HeaderLength, LongKeyLength(stored, data)) : stored;

    /// <summary>The caller's value of a stored pair.</summary>
    /// <exception cref="LmdbException">A long-key record is damaged (<c>MDB_CORRUPTED</c>).</exception>
    public static ReadOnlySpan<byte> Value(ReadOnlySpan<byte> stored, ReadOnlySpan<byte> data) =>
        IsSlot(stored) ? data[(HeaderLength + LongKeyLength(stored, data))..] : data;

    // A damaged file must give a Corrupt DataStoreException, never a slicing exception: check the record's shape.
    private static int LongKeyLength(ReadOnlySpan<byte> stored, ReadOnlySpan<byte> data)
    {
        var length = data.Length >= HeaderLength ? BinaryPrimitives.ReadInt32LittleEndian(data) : -1;
        if (stored.Length != SlotLength || length <= PlainMax || length > data.Length - HeaderLength)
        {
            throw new LmdbException(LmdbNative.Corrupted);
        }

        return length;
    }

    /// <summary>Writes a long key's stored value: header, whole key, value.</summary>
    public static void WriteSlotValue(Span<byte> destination, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(destination, key.Length);
        key.CopyTo(destination[HeaderLength..]);
        value.CopyTo(destination[(HeaderLength + key.Length)..]);
    }

    /// <summary>Where a scan or range delete starts in stored order: the start bound, cut to the plain length.</summary>
    public static ReadOnlySpan<byte> SeekKey(ReadOnlySpan<byte> start) => start.Length > PlainMax ? start[..PlainMax] : start;

    /// <summary>
    /// True when no pair at or after <paramref name="stored"/> in stored order sorts before <paramref name="end"/> (not
    /// empty). A plain key at or past the end ends the range; a slot ends it only when its prefix does, since slots
    /// sharing a prefix are in hash order.
    /// </summary>
    public static bool PastEnd(ReadOnlySpan<byte> stored, ReadOnlySpan<byte> end) =>
        (IsSlot(stored) ? stored[..PlainMax] : stored).SequenceCompareTo(end) >= 0;
}
