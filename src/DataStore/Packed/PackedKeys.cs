namespace DataStore.Packed;

/// <summary>How a key is named in an error message: its length and its first bytes in hex.</summary>
internal static class PackedKeys
{
    public static string Describe(ReadOnlySpan<byte> key) =>
        key.Length <= 32 ? $"0x{Convert.ToHexString(key)}" : $"0x{Convert.ToHexString(key[..32])}... ({key.Length} bytes)";
}
