using System.Runtime.InteropServices;
using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// The operating system's error number behind SQLite's last failure on a connection (<c>sqlite3_system_errno</c>),
/// which SQLitePCLRaw does not expose: it tells a file size limit (EFBIG, reported by SQLite as a plain I/O error) and
/// running out of file descriptors (EMFILE, reported as "unable to open") from other failures.
/// </summary>
internal static partial class SqliteSystemError
{
    /// <summary>The error number, or 0 when SQLite recorded none or the function cannot be reached.</summary>
    public static int Of(sqlite3 db)
    {
        try
        {
            return SystemErrno(db.DangerousGetHandle());
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return 0;
        }
    }

    [LibraryImport("e_sqlite3", EntryPoint = "sqlite3_system_errno")]
    private static partial int SystemErrno(IntPtr db);
}
