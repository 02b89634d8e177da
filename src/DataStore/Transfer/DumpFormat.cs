namespace DataStore.Transfer;

/// <summary>The constants of the dump format (docs/dump-format.md): magic, version, frame and length limits.</summary>
internal static class DumpFormat
{
    /// <summary>The format version this build writes and the newest it reads.</summary>
    public const uint CurrentVersion = 1;

    /// <summary>The header: magic (8), version (4), flags (4), pair-count hint (8), CRC-32C of the first 24 bytes (4).</summary>
    public const int HeaderLength = 28;

    /// <summary>The trailer: pair count (8), byte count (8), SHA-256 (32), CRC-32C of the first 48 bytes (4).</summary>
    public const int TrailerLength = 52;

    /// <summary>The largest frame payload a writer emits and a reader accepts.</summary>
    public const int MaxFrameLength = 1 << 20;

    /// <summary>The largest key or value length a reader accepts: the largest .NET array.</summary>
    public const int MaxLength = 0x7FFFFFC7;

    /// <summary>The pair-count hint that means "not known".</summary>
    public const ulong UnknownPairs = ulong.MaxValue;

    /// <summary>No flags are defined in version 1; a reader refuses any set bit.</summary>
    public const uint KnownFlags = 0;

    /// <summary>The 8 bytes every dump starts with: 0x89, "DSDUMP", a line feed.</summary>
    public static ReadOnlySpan<byte> Magic => [0x89, (byte)'D', (byte)'S', (byte)'D', (byte)'U', (byte)'M', (byte)'P', 0x0A];
}
