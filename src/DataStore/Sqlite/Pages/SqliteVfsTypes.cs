using System.Runtime.InteropServices;

namespace DataStore.Sqlite.Pages;

// The C structures of SQLite's VFS interface (https://www.sqlite.org/c3ref/vfs.html, io_methods.html), version 3, laid
// out as sqlite3.h declares them. Only the members this shim calls or replaces are typed; the rest are copied as is.

/// <summary><c>sqlite3_vfs</c>.</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct SqliteVfs
{
    public int Version;
    public int FileSize;
    public int MaxPathname;
    public SqliteVfs* Next;
    public byte* Name;
    public IntPtr AppData;
    public delegate* unmanaged[Cdecl]<SqliteVfs*, byte*, SqliteFile*, int, int*, int> Open;
    public IntPtr Delete, Access, FullPathname, DlOpen, DlError, DlSym, DlClose, Randomness, Sleep, CurrentTime, GetLastError;
    public IntPtr CurrentTimeInt64, SetSystemCall, GetSystemCall, NextSystemCall;
}

/// <summary><c>sqlite3_file</c>: the methods pointer at the start of every VFS's own file structure.</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct SqliteFile
{
    public SqliteIoMethods* Methods;
}

/// <summary><c>sqlite3_io_methods</c>.</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct SqliteIoMethods
{
    public int Version;
    public IntPtr Close;
    public delegate* unmanaged[Cdecl]<SqliteFile*, byte*, int, long, int> Read;
    public delegate* unmanaged[Cdecl]<SqliteFile*, byte*, int, long, int> Write;
    public IntPtr Truncate, Sync, FileSize, Lock, Unlock, CheckReservedLock, FileControl, SectorSize, DeviceCharacteristics;
    public IntPtr ShmMap, ShmLock, ShmBarrier, ShmUnmap;
    public delegate* unmanaged[Cdecl]<SqliteFile*, long, int, void**, int> Fetch;
    public IntPtr Unfetch;
}

/// <summary>What the shim keeps per open database file, placed right after the default VFS's own file structure.</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct CheckedFileState
{
    /// <summary>The default VFS's methods for this file, which every call ends in.</summary>
    public SqliteIoMethods* Original;

    /// <summary>1 once the database's header says its pages carry checksums (reserved bytes = 8); never goes back to 0.</summary>
    public int Checked;

    /// <summary>A write-ahead log's name as SQLite passed it to xOpen (valid until the file closes); null for a database file.</summary>
    public byte* Name;
}
