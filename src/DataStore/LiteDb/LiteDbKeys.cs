using System.Buffers.Binary;
using System.Security.Cryptography;

namespace DataStore.LiteDb;

/// <summary>
/// Maps keys to LiteDB <c>_id</c> values (binary, which LiteDB orders as unsigned bytes, a proper prefix first)
/// and back. A key of up to <see cref="Direct"/> bytes is its own id. A longer key, past LiteDB's 1,023-byte
/// index-key limit, gets the id <c>key[..Direct] + hash(key) (8 bytes) + collision number (2 bytes)</c> and is
/// stored whole in the document's <c>k</c> field.
/// </summary>
/// <remarks>
/// Ids order exactly as keys do, except among long keys that share their first <see cref="Direct"/> bytes (a
/// "run"), which sort by hash: a run's ids are adjacent and every other key sorts before or after all of them,
/// so scans sort each run by its full keys. Two long keys with the same first bytes and the same hash differ in
/// their collision number; lookups compare full keys.
/// </remarks>
internal sealed class LiteDbKeys(Func<byte[], ulong> hash)
{
    /// <summary>The longest key that is its own id.</summary>
    public const int Direct = 1000;

    /// <summary>The length of a long key's id.</summary>
    public const int LongIdLength = Direct + 8 + 2;

    /// <summary>The default hash: the first 8 bytes of SHA-256.</summary>
    public static readonly LiteDbKeys Default = new(key => BinaryPrimitives.ReadUInt64BigEndian(SHA256.HashData(key)));

    public static bool IsLong(ReadOnlySpan<byte> key) => key.Length > Direct;

    public static bool IsLongId(byte[] id) => id.Length > Direct;

    /// <summary>The id of a long key with collision number <paramref name="number"/>.</summary>
    public byte[] LongId(byte[] key, int number)
    {
        var id = new byte[LongIdLength];
        key.AsSpan(0, Direct).CopyTo(id);
        BinaryPrimitives.WriteUInt64BigEndian(id.AsSpan(Direct), hash(key));
        BinaryPrimitives.WriteUInt16BigEndian(id.AsSpan(Direct + 8), (ushort)number);
        return id;
    }

    /// <summary>The collision number of a long key's id.</summary>
    public static int Number(byte[] id) => BinaryPrimitives.ReadUInt16BigEndian(id.AsSpan(Direct + 8));

    /// <summary>The smallest id a scan from <paramref name="start"/> must read (a long start is cut to its run).</summary>
    public static byte[] LowId(ReadOnlySpan<byte> start) => (IsLong(start) ? start[..Direct] : start).ToArray();

    /// <summary>The largest id a scan ending before <paramref name="end"/> (not empty) must read, inclusive.</summary>
    public static byte[] HighId(ReadOnlySpan<byte> end)
    {
        if (!IsLong(end))
        {
            return end.ToArray();
        }

        var id = new byte[LongIdLength];
        end[..Direct].CopyTo(id);
        id.AsSpan(Direct).Fill(0xFF);
        return id;
    }

    /// <summary>True when two ids belong to the same run of long keys.</summary>
    public static bool SameRun(byte[] a, byte[] b) =>
        IsLongId(a) && IsLongId(b) && a.AsSpan(0, Direct).SequenceEqual(b.AsSpan(0, Direct));
}
