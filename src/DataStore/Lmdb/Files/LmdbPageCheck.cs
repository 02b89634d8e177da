namespace DataStore.Lmdb.Files;

/// <summary>
/// Verify's first pass over an LMDB data file: both trees walked with our own bounds-checked reader
/// (<see cref="LmdbTreeReader"/>), so damage it can see is reported before LMDB's cursor meets it, since LMDB aborts the
/// process on a page of the wrong kind (its <c>IS_LEAF</c> assertion). The caller holds a read transaction, so no
/// page the walk follows is reused by a writer meanwhile.
/// </summary>
internal static class LmdbPageCheck
{
    /// <summary>The damage found, or null when every page the trees use is sound as far as the reader can tell.</summary>
    public static string? FindDamage(string directory, string dataFile, CancellationToken cancellationToken)
    {
        try
        {
            using var file = StoreFiles.Guard(directory, StoreBackend.Lmdb, () => LmdbDataFile.Open(directory, dataFile));
            var reader = new LmdbTreeReader(file);
            reader.Walk(file.Meta.Free, "free-page", static (_, _) => { }, cancellationToken, integerKeys: true);
            reader.Walk(file.Meta.Main, "main", static (_, _) => { }, cancellationToken);
            return null;
        }
        catch (StoreFormatException e)
        {
            return e.Message;
        }
    }
}
