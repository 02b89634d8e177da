namespace DataStore.Lmdb.Files;

/// <summary>
/// Verify's first pass over an LMDB data file: the free-page tree and the store's trees (<see cref="LmdbStoreTrees"/>, the
/// change log's records included) walked with our own bounds-checked reader
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
            LmdbStoreTrees.Walk(file, reader, (key, record) => CheckRecord(file, key, record), cancellationToken);
            return null;
        }
        catch (StoreFormatException e)
        {
            return e.Message;
        }
    }

    // A change-log record: an 8-byte sequence as its key, and changes the feed's reader can decode (ADR 0020).
    private static void CheckRecord(LmdbDataFile file, ReadOnlySpan<byte> key, ReadOnlySpan<byte> record)
    {
        var sequence = key.Length == sizeof(long) ? System.Buffers.Binary.BinaryPrimitives.ReadInt64BigEndian(key) : 0;
        if (sequence <= 0)
        {
            throw file.Damage($"its change log holds a record under a {key.Length}-byte key that is not a sequence number");
        }

        try
        {
            _ = ChangeFeed.ChangeRecord.Read(record, [], []);
        }
        catch (FormatException e)
        {
            throw file.Damage($"the change-log record of commit {sequence} is damaged ({e.Message})");
        }
    }
}
