using System.Security.Cryptography;

namespace DataStore.FileSystem;

/// <summary>
/// The names of key files and node directories. A key file in the directory of prefix P is named <c>k</c> plus
/// the rest of the key (the bytes after P), digits and lowercase letters as themselves and every other byte as an
/// escape (<c>+xx</c> below <c>0</c>, <c>_xx</c> between <c>9</c> and <c>a</c>, <c>~xx</c> above <c>z</c>, in lowercase hex), so
/// an ordinal listing is key order and names are the same on case-insensitive file systems. A rest whose name
/// would pass <see cref="PlainNameLimit"/> characters is named by its first bytes, <c>=</c> and 128 bits of
/// SHA-256 (and <c>-n</c> for the n-th key whose name collides); the whole key is in every file.
/// A split directory's children are named <c>x</c> plus the next key byte in hex.
/// </summary>
internal static class KeyNames
{
    /// <summary>The longest plain file name, in characters.</summary>
    public const int PlainNameLimit = 200;

    /// <summary>The longest name any key file gets, plain or hashed: every buffer a name is written into is this long.</summary>
    public const int MaxNameLength = PlainNameLimit > HashedNameLimit ? PlainNameLimit : HashedNameLimit;

    /// <summary>The file whose presence marks a directory as split into one child directory per next byte.</summary>
    public const string SplitMarker = "split";

    private const int HashedPrefixLimit = 150;

    /// <summary>The longest hashed name: <c>k</c>, up to <see cref="HashedPrefixLimit"/> characters, <c>=</c>, the hash in hex, <c>-</c> and a slot number.</summary>
    private const int HashedNameLimit = 1 + HashedPrefixLimit + 1 + (2 * HashBytes) + 1 + 10;

    /// <summary>Test hook: while true on a thread, every hashed name that thread makes has the same hash, so collisions are certain.</summary>
    [ThreadStatic]
    internal static bool CollideHashesForTests;
    private const int HashBytes = 16;

    private static ReadOnlySpan<byte> Hex => "0123456789abcdef"u8;

    /// <summary>True when the rest of a key is too long for a plain name.</summary>
    public static bool IsHashed(ReadOnlySpan<byte> rest)
    {
        if (rest.Length * 3 < PlainNameLimit)
        {
            return false;
        }

        var length = 1;
        foreach (var b in rest)
        {
            length += CodeLength(b);
            if (length > PlainNameLimit)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Writes the file name of <paramref name="rest"/> (in collision slot <paramref name="slot"/> when hashed) and returns its length.</summary>
    public static int Write(ReadOnlySpan<byte> rest, int slot, Span<byte> destination)
    {
        destination[0] = (byte)'k';
        var length = 1;
        var hashed = IsHashed(rest);
        var limit = hashed ? 1 + HashedPrefixLimit : int.MaxValue;
        foreach (var b in rest)
        {
            if (length + CodeLength(b) > limit)
            {
                break;
            }

            length += Encode(b, destination[length..]);
        }

        if (!hashed)
        {
            return length;
        }

        destination[length++] = (byte)'=';
        Span<byte> hash = stackalloc byte[32];
        if (!CollideHashesForTests)
        {
            SHA256.HashData(rest, hash);
        }

        foreach (var b in hash[..HashBytes])
        {
            destination[length++] = Hex[b >> 4];
            destination[length++] = Hex[b & 15];
        }

        if (slot > 0)
        {
            destination[length++] = (byte)'-';
            slot.TryFormat(destination[length..], out var digits, provider: System.Globalization.CultureInfo.InvariantCulture);
            length += digits;
        }

        return length;
    }

    /// <summary>What a directory entry is: a plain key file (its rest decoded into <paramref name="rest"/>), a hashed key file, or neither.</summary>
    public static NameKind Classify(ReadOnlySpan<char> name, List<byte> rest)
    {
        rest.Clear();
        if (name.IsEmpty || name[0] != 'k')
        {
            return NameKind.Other;
        }

        for (var i = 1; i < name.Length;)
        {
            var c = name[i];
            if (c is (>= '0' and <= '9') or (>= 'a' and <= 'z'))
            {
                rest.Add((byte)c);
                i++;
            }
            else if (c is '+' or '_' or '~' && i + 2 < name.Length && TryHex(name[i + 1], name[i + 2], out var b))
            {
                rest.Add(b);
                i += 3;
            }
            else
            {
                return c == '=' ? NameKind.Hashed : NameKind.Other;
            }
        }

        return NameKind.Plain;
    }

    /// <summary>The name of the child directory for next byte <paramref name="b"/>.</summary>
    public static string ChildName(byte b) => string.Create(3, b, (span, value) =>
    {
        span[0] = 'x';
        span[1] = (char)Hex[value >> 4];
        span[2] = (char)Hex[value & 15];
    });

    /// <summary>Parses a child directory's name back to its byte.</summary>
    public static bool TryParseChild(ReadOnlySpan<char> name, out byte b)
    {
        b = 0;
        return name.Length == 3 && name[0] == 'x' && TryHex(name[1], name[2], out b);
    }

    private static int CodeLength(byte b) => IsRaw(b) ? 1 : 3;

    private static bool IsRaw(byte b) => (uint)(b - '0') <= 9 || (uint)(b - 'a') <= 25;

    private static int Encode(byte b, Span<byte> destination)
    {
        if (IsRaw(b))
        {
            destination[0] = b;
            return 1;
        }

        destination[0] = b < '0' ? (byte)'+' : b < 'a' ? (byte)'_' : (byte)'~';
        destination[1] = Hex[b >> 4];
        destination[2] = Hex[b & 15];
        return 3;
    }

    private static bool TryHex(char high, char low, out byte value)
    {
        var h = HexValue(high);
        var l = HexValue(low);
        value = (byte)((h << 4) | l);
        return h >= 0 && l >= 0;
    }

    private static int HexValue(char c) => c is >= '0' and <= '9' ? c - '0' : c is >= 'a' and <= 'f' ? c - 'a' + 10 : -1;
}
