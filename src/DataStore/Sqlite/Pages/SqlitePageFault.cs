namespace DataStore.Sqlite.Pages;

/// <summary>
/// What the page-checksum VFS met on this thread, for the exception the SQLite call it happened under is turned into:
/// the VFS's callbacks run on the calling thread inside SQLite and may only return a code.
/// </summary>
internal static class SqlitePageFault
{
    /// <summary><c>SQLITE_IOERR_DATA</c>: a page read back does not match its checksum.</summary>
    public const int ChecksumMismatch = 10 | (32 << 8);

    /// <summary><c>SQLITE_IOERR</c>: the shim itself failed (its exception is recorded).</summary>
    public const int IoError = 10;

    [ThreadStatic]
    private static long t_page;

    [ThreadStatic]
    private static Exception? t_exception;

    /// <summary>Records that page <paramref name="page"/> (1-based) failed its checksum.</summary>
    public static void Record(long page)
    {
        t_page = page;
        t_exception = null;
    }

    /// <summary>Records an exception the shim caught instead of letting it into SQLite.</summary>
    public static void Record(Exception exception)
    {
        t_page = 0;
        t_exception = exception;
    }

    /// <summary>Takes (and clears) the page and exception last recorded on this thread.</summary>
    public static (long Page, Exception? Exception) Take()
    {
        var taken = (t_page, t_exception);
        t_page = 0;
        t_exception = null;
        return taken;
    }
}
