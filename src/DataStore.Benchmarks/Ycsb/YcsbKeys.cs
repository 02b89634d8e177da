using System.Buffers.Binary;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// YCSB's record shape: the key of record <c>n</c> is <c>"user"</c> and the 8-byte big-endian FNV-1a hash of
/// <c>n</c> (12 bytes; hashed, so inserts land all over the key space), the value 100 random bytes.
/// </summary>
public static class YcsbKeys
{
    public const int KeySize = 12;
    public const int ValueSize = 100;

    /// <summary>Writes record <paramref name="record"/>'s key into <paramref name="key"/> (<see cref="KeySize"/> bytes).</summary>
    public static void Write(long record, Span<byte> key)
    {
        "user"u8.CopyTo(key);
        BinaryPrimitives.WriteUInt64BigEndian(key[4..], Fnv64((ulong)record));
    }

    /// <summary>Record <paramref name="record"/>'s key as a new array.</summary>
    public static byte[] Of(long record)
    {
        var key = new byte[KeySize];
        Write(record, key);
        return key;
    }

    /// <summary>64-bit FNV-1a over the eight bytes of <paramref name="value"/>, as YCSB hashes record numbers.</summary>
    public static ulong Fnv64(ulong value)
    {
        var hash = 0xCBF29CE484222325UL;
        for (var i = 0; i < 8; i++)
        {
            hash = (hash ^ (value & 0xFF)) * 0x100000001B3UL;
            value >>= 8;
        }

        return hash;
    }
}
