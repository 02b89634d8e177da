namespace DataStore.Lmdb.Files;

/// <summary>One tree's root as a meta page records it (<c>MDB_db</c>).</summary>
internal readonly record struct LmdbTree(ushort Depth, ulong Entries, ulong Root)
{
    /// <summary>LMDB's "no page" root of an empty tree.</summary>
    public const ulong NoRoot = ulong.MaxValue;

    public bool IsEmpty => Root == NoRoot;
}

/// <summary>The meta page LMDB opens a data file at: the valid one of the two with the higher transaction id.</summary>
internal sealed record LmdbMeta(LmdbFileLayout Layout, int PageSize, ulong LastPage, ulong TransactionId, LmdbTree Free, LmdbTree Main);
