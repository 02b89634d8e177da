using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using DataStore.Sqlite.Files;

namespace DataStore.Sqlite.Pages;

/// <summary>
/// The one replaced method of a write-ahead log opened through <see cref="SqlitePageVfs"/>: when SQLite writes a log
/// header (a new log, or one starting over after a checkpoint), the store records it with this boot
/// (<see cref="SqliteWalBegun"/>), so the open's <see cref="SqliteWalCheck"/> can tell a damaged log from a torn one.
/// The bytes SQLite writes are passed on unchanged.
/// </summary>
internal static unsafe class SqliteWalFile
{
    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    public static int Write(SqliteFile* file, byte* buffer, int amount, long offset)
    {
        var state = SqlitePageVfs.State(file);
        var rc = state->Original->Write(file, buffer, amount, offset);
        if (rc != 0 || offset != 0 || amount != SqliteWalFormat.HeaderSize || state->Name is null)
        {
            return rc;
        }

        try
        {
            SqliteWalBegun.Write(Marshal.PtrToStringUTF8((IntPtr)state->Name)!, new ReadOnlySpan<byte>(buffer, amount));
        }
        catch (Exception)
        {
            // Nothing is thrown into SQLite, and the write itself succeeded: without a record of this header the log is
            // simply left to SQLite's own recovery, as before the check existed.
        }

        return rc;
    }
}
