namespace DataStore.Sharing;

/// <summary>
/// The broker's wire format. A message is one or more frames; a frame is a 4-byte little-endian header (bits 0-30 the
/// payload length, at most <see cref="MaxFrame"/>; bit 31 set when more frames of the same message follow) and its
/// payload. A message's first byte is its <see cref="MessageKind"/>; integers are little-endian; byte strings carry a
/// 4-byte length.
/// </summary>
internal static class BrokerProtocol
{
    /// <summary>The version a client sends in its hello; the owner refuses any other.</summary>
    public const ushort Version = 1;

    /// <summary>"DSBR": the first bytes of a hello, so a stray peer is told apart at once.</summary>
    public const uint Magic = 0x52425344;

    /// <summary>The largest frame payload (1 MiB); a larger value streams as several frames.</summary>
    public const int MaxFrame = 1 << 20;

    /// <summary>The largest message (a 256 MiB value and a 1 MiB key fit with room to spare); a peer announcing more is disconnected.</summary>
    public const int MaxMessage = 1 << 30;

    /// <summary>A scan chunk ends after this many pairs ...</summary>
    public const int ChunkPairs = 1024;

    /// <summary>... or once it holds this many bytes.</summary>
    public const int ChunkBytes = 256 * 1024;

    /// <summary>The last byte of a scan chunk when more chunks follow: a client asks for the next one before it reads this one.</summary>
    public const byte MoreChunks = 0;

    /// <summary>The last byte of a scan's last chunk.</summary>
    public const byte LastChunk = 2;

    public const uint MoreFrames = 0x8000_0000;
}
