namespace DataStore.Tests.Conformance;

/// <summary>Test data helpers: keys and values of given shapes.</summary>
internal static class Bytes
{
    public static byte[] Of(params byte[] bytes) => bytes;

    public static byte[] Utf8(string text) => System.Text.Encoding.UTF8.GetBytes(text);

    /// <summary>Deterministic pseudo-random bytes of <paramref name="length"/>, different per <paramref name="seed"/>.</summary>
    public static byte[] Random(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    /// <summary>A key of <paramref name="length"/> bytes that starts with <paramref name="prefix"/> and ends with <paramref name="tail"/>.</summary>
    public static byte[] Key(int length, byte prefix, byte tail)
    {
        var key = new byte[length];
        key.AsSpan().Fill(0x5A);
        key[0] = prefix;
        key[^1] = tail;
        return key;
    }

    public static string Hex(ReadOnlySpan<byte> bytes) =>
        bytes.Length <= 32 ? Convert.ToHexString(bytes) : $"{Convert.ToHexString(bytes[..32])}...({bytes.Length} bytes)";
}
