using System.Text;

namespace DataStore.Transfer;

/// <summary>Shows a key in a problem report: quoted when it is printable ASCII, else hexadecimal; long keys shortened.</summary>
internal static class KeyText
{
    private const int Shown = 48;

    public static string Describe(ReadOnlySpan<byte> key)
    {
        var head = key[..Math.Min(key.Length, Shown)];
        var text = head.IndexOfAnyExceptInRange((byte)0x20, (byte)0x7E) < 0
            ? $"\"{Encoding.ASCII.GetString(head)}\""
            : $"0x{Convert.ToHexStringLower(head)}";
        return key.Length > Shown ? $"{text}... ({key.Length:N0} bytes)" : text;
    }
}
