using System.Buffers.Binary;

namespace DataStore.Lmdb.Files;

/// <summary>
/// What happens to an existing data file before LMDB maps it: a file from LMDB 0.9 is converted (with the store to
/// this process alone), and the file's length is compared with what its meta page says it holds, so a truncated file
/// is an error naming it instead of a SIGBUS on the first read past its end (ADR 0006).
/// </summary>
internal static class LmdbOpenCheck
{
    /// <summary>How many times the checks of a file that other processes keep committing to run before a finding stands.</summary>
    public const int Attempts = 20;

    /// <summary>
    /// Converts the data file from LMDB 0.9 when it is in that format, taking <paramref name="openLock"/> exclusive for
    /// the conversion (other processes wait at their open); false when another process kept the store open past the timeout.
    /// </summary>
    public static bool ConvertIfOld(string directory, string dataFile, LmdbFileLock openLock, LmdbErrors errors)
    {
        if (!IsOld(directory, dataFile))
        {
            return true;
        }

        if (!openLock.TryTake(exclusive: true, errors.Timeout))
        {
            return false;
        }

        if (IsOld(directory, dataFile)) // another process may have converted it while this one waited
        {
            LmdbConversion.Run(directory, dataFile, errors);
        }

        return true;
    }

    /// <summary>The existing data file's format, after checking its length covers every page in use.</summary>
    public static LmdbFileLayout Inspect(string directory, string dataFile) =>
        Inspect(directory, dataFile, () => StoreFiles.Guard(directory, StoreBackend.Lmdb, () => LmdbDataFile.Open(directory, dataFile)));

    /// <summary>
    /// <see cref="Inspect(string, string)"/> reading the file through <paramref name="open"/>. The checks run before LMDB
    /// maps the file, so no read transaction keeps a writer in another process from reusing the pages they read: a
    /// finding of damage counts only if the file's newest meta page is still the one checked; when a commit came in
    /// between, the checks run again on the newer state (at most <see cref="Attempts"/> times).
    /// </summary>
    public static LmdbFileLayout Inspect(string directory, string dataFile, Func<LmdbDataFile> open)
    {
        for (var attempt = 1; ; attempt++)
        {
            using var file = open();
            if (file.Meta.Layout != LmdbFileLayout.Lmdb10)
            {
                throw new StoreFormatException(StoreFailure.Unavailable, directory, StoreBackend.Lmdb,
                    $"the data file {dataFile} is in the {file.Meta.Layout.Name} format and another process holds the store, so it cannot be converted to LMDB 1.0 now. Close the other programs and open it again.");
            }

            try
            {
                CheckSize(file);
                var reader = new LmdbTreeReader(file);
                reader.CheckRoot(file.Meta.Main, "main");
                reader.CheckRoot(file.Meta.Free, "free-page");
                return file.Meta.Layout;
            }
            catch (StoreFormatException) when (attempt < Attempts && Committed(open, file.Meta.TransactionId))
            {
                // Another process committed after the meta page was read: the pages checked may have been reused since.
            }
        }
    }

    // True when the file's newest meta page now names a later transaction than the one checked (read after the checks).
    private static bool Committed(Func<LmdbDataFile> open, ulong checkedTransaction)
    {
        try
        {
            using var file = open();
            return file.Meta.TransactionId != checkedTransaction;
        }
        catch (DataStoreException)
        {
            return false; // the meta pages cannot be read now: the first finding stands
        }
    }

    /// <summary>
    /// Throws when the file ends before a page in use. LMDB's meta page records the last page used, but a file may
    /// end earlier when the pages after its end are all free (listed in the free-page tree), so those are looked up.
    /// </summary>
    public static void CheckSize(LmdbDataFile file)
    {
        var pages = (ulong)(file.Length / file.Meta.PageSize);
        if (pages > file.Meta.LastPage)
        {
            return;
        }

        var free = new HashSet<ulong>();
        new LmdbTreeReader(file).Walk(file.Meta.Free, "free-page", (_, list) =>
        {
            // An MDB_IDL: a count, then that many page numbers.
            var count = list.Length >= 8 ? BinaryPrimitives.ReadUInt64LittleEndian(list) : 0;
            for (var i = 1; i <= (int)Math.Min(count, (ulong)(list.Length / 8 - 1)); i++)
            {
                var page = BinaryPrimitives.ReadUInt64LittleEndian(list[(i * 8)..]);
                if (page >= pages)
                {
                    free.Add(page);
                }
            }
        }, integerKeys: true);

        for (var page = pages; page <= file.Meta.LastPage; page++)
        {
            if (!free.Contains(page))
            {
                throw file.Damage($"it is {file.Length} bytes long ({pages} pages of {file.Meta.PageSize} bytes), but its meta page records pages up to {file.Meta.LastPage} and page {page} is in use: the file was truncated");
            }
        }
    }

    private static bool IsOld(string directory, string dataFile) => StoreFiles.Guard(directory, StoreBackend.Lmdb, () =>
    {
        if (!File.Exists(dataFile) || new FileInfo(dataFile).Length == 0)
        {
            return false;
        }

        using var file = LmdbDataFile.Open(directory, dataFile);
        return LmdbConversion.Needed(file);
    });
}
