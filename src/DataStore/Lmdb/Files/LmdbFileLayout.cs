namespace DataStore.Lmdb.Files;

/// <summary>
/// Where LMDB keeps things in its data file (64-bit builds), for the two file formats we meet: LMDB 0.9's
/// (<c>mm_version</c> 1) and LMDB 1.0's (<c>mm_version</c> 3, whose page header adds a transaction id, whose keys
/// are padded to an even length and whose overflow records name their page count).
/// </summary>
internal sealed record LmdbFileLayout(string Name, uint Version, int HeaderSize, int NodeBase, int FlagsOffset, bool EvenKeys, int BigDataSize)
{
    /// <summary>LMDB's magic number, the first field of a meta page's contents.</summary>
    public const uint Magic = 0xBEEFC0DE;

    /// <summary>The file format of LMDB 0.9.</summary>
    public static readonly LmdbFileLayout Lmdb09 = new("LMDB 0.9", 1, HeaderSize: 16, NodeBase: 0, FlagsOffset: 10, EvenKeys: false, BigDataSize: 8);

    /// <summary>The file format of LMDB 1.0.</summary>
    public static readonly LmdbFileLayout Lmdb10 = new("LMDB 1.0", 3, HeaderSize: 24, NodeBase: 24, FlagsOffset: 18, EvenKeys: true, BigDataSize: 24);

    /// <summary>The offset of <c>mp_lower</c> (or an overflow page's page count) in a page.</summary>
    public int LowerOffset => FlagsOffset + 2;

    /// <summary>The number of nodes on a branch or leaf page whose <c>mp_lower</c> is <paramref name="lower"/>.</summary>
    public int NodeCount(int lower) => (lower - (HeaderSize - NodeBase)) >> 1;
}
