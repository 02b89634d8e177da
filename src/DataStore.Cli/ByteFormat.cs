namespace DataStore.Cli;

/// <summary>How keys and values typed on the command line, and printed by it, stand for bytes.</summary>
internal enum ByteFormat
{
    /// <summary>UTF-8 text (the default); values printed by <c>get</c> are the raw bytes.</summary>
    Utf8,

    /// <summary>Hexadecimal digits, two per byte.</summary>
    Hex,

    /// <summary>Standard base64.</summary>
    Base64,
}
