using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using DataStore.Sqlite.Files;

namespace DataStore.Sqlite.Pages;

/// <summary>
/// The one replaced method of a write-ahead log opened through <see cref="SqlitePageVfs"/>: when SQLite writes a log
/// header (a new log, or one starting over after a checkpoint), the store records it with this boot
/// (<see cref="SqliteWalBegun"/>), so the open's <see cref="SqliteWalCheck"/> can tell a damaged log from a torn one.
/// The bytes SQLite writes are passed on unchanged. SQLite writes a header with the salts of the one already in the file
/// when it begins writing a log whose recovery found no frame (after a power loss, say): frames of that generation left
/// behind the new ones, from before the restart, would then chain on in the check, so such a log is recorded as begun in
/// no known boot and stays SQLite's to recover (<see cref="SqliteWalBegun.Write"/>).
/// </summary>
internal static unsafe class SqliteWalFile
{
    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    public static int Write(SqliteFile* file, byte* buffer, int amount, long offset)
    {
        var state = SqlitePageVfs.State(file);
        var walFile = offset == 0 && amount == SqliteWalFormat.HeaderSize && state->Name is not null ? LogFile(state->Name) : null;
        var previous = walFile is null ? null : SqliteWalBegun.HeaderIn(walFile);
        var rc = state->Original->Write(file, buffer, amount, offset);
        if (rc != 0 || walFile is null)
        {
            return rc;
        }

        try
        {
            SqliteWalBegun.Write(walFile, new ReadOnlySpan<byte>(buffer, amount), previous);
        }
        catch (Exception)
        {
            // Nothing is thrown into SQLite, and the write itself succeeded: without a record of this header the log is
            // simply left to SQLite's own recovery, as before the check existed.
        }

        return rc;
    }

    // The log's path; null when it cannot be read (nothing is thrown into SQLite: the header is then simply not recorded).
    private static string? LogFile(byte* name)
    {
        try
        {
            return Marshal.PtrToStringUTF8((IntPtr)name);
        }
        catch (Exception)
        {
            return null;
        }
    }
}
