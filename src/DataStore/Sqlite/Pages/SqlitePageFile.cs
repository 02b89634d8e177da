using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DataStore.Sqlite.Pages;

/// <summary>
/// The replaced methods of a database file opened through <see cref="SqlitePageVfs"/>: a page-sized write gets its
/// checksum in its last 8 bytes, a page-sized read is checked before SQLite sees it, and memory-mapped reads are refused
/// (SQLite then reads), so no page reaches the engine unchecked. Nothing is thrown back into SQLite: a mismatch is
/// <c>SQLITE_IOERR_DATA</c>, with the page recorded for <see cref="SqliteErrors"/> (<see cref="SqlitePageFault"/>).
/// </summary>
internal static unsafe class SqlitePageFile
{
    private const int HeaderSize = 100;

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    public static int Read(SqliteFile* file, byte* buffer, int amount, long offset)
    {
        var state = SqlitePageVfs.State(file);
        var rc = state->Original->Read(file, buffer, amount, offset);
        if (rc != 0)
        {
            return rc; // a short read is SQLite's to judge (zeros past the end); the open's truncation check covers the file's length
        }

        try
        {
            if (state->Checked == 0)
            {
                // Checked from here on when this is the header of a database created since the file was opened empty.
                if (offset != 0 || amount < HeaderSize || !SqlitePageVfs.ReservesChecksum(new ReadOnlySpan<byte>(buffer, amount)))
                {
                    return 0;
                }

                state->Checked = 1;
            }

            if (IsPage(amount, offset) && !PageChecksum.Matches(new ReadOnlySpan<byte>(buffer, amount), (offset / amount) + 1))
            {
                SqlitePageFault.Record((offset / amount) + 1);
                return SqlitePageFault.ChecksumMismatch;
            }

            return 0;
        }
        catch (Exception e)
        {
            SqlitePageFault.Record(e);
            return SqlitePageFault.IoError;
        }
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    public static int Write(SqliteFile* file, byte* buffer, int amount, long offset)
    {
        var state = SqlitePageVfs.State(file);
        try
        {
            if (state->Checked == 0 && IsPage(amount, offset))
            {
                // A file opened empty: checked from now on when the database's first page (this one, or the one on disk) reserves the bytes.
                state->Checked = HeaderReserves(file, state, offset == 0 ? buffer : null) ? 1 : 0;
            }

            if (state->Checked != 0 && IsPage(amount, offset))
            {
                // SQLite owns the page buffer and leaves the reserved bytes to the VFS: the checksum goes in place.
                PageChecksum.Store(new Span<byte>(buffer, amount), (offset / amount) + 1);
            }
        }
        catch (Exception e)
        {
            SqlitePageFault.Record(e);
            return SqlitePageFault.IoError;
        }

        return state->Original->Write(file, buffer, amount, offset);
    }

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    public static int Fetch(SqliteFile* file, long offset, int amount, void** page)
    {
        var state = SqlitePageVfs.State(file);
        if (state->Checked != 0)
        {
            *page = null; // no mapped page: SQLite reads it through Read, which checks it
            return 0;
        }

        return state->Original->Fetch(file, offset, amount, page);
    }

    private static bool HeaderReserves(SqliteFile* file, CheckedFileState* state, byte* page)
    {
        if (page is not null)
        {
            return SqlitePageVfs.ReservesChecksum(new ReadOnlySpan<byte>(page, HeaderSize));
        }

        var header = stackalloc byte[HeaderSize];
        return state->Original->Read(file, header, HeaderSize, 0) == 0 && SqlitePageVfs.ReservesChecksum(new ReadOnlySpan<byte>(header, HeaderSize));
    }

    // Every read and write of a whole page of a database file is page-sized at a page boundary: 512 to 65,536 bytes.
    private static bool IsPage(int amount, long offset) =>
        amount is >= 512 and <= 65_536 && BitOperations.IsPow2(amount) && offset % amount == 0;
}
