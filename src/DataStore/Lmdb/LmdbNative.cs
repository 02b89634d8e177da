using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

/// <summary>
/// The LMDB C API, called directly on the LMDB 1.0.1 that <see cref="LmdbLibrary"/> loads.
/// Direct calls keep the hot paths free of allocations and let the store manage transactions, map growth and
/// locking itself; the managed wrapper is not used.
/// </summary>
internal static unsafe partial class LmdbNative
{
    private const string Library = "lmdb";

    public const int Success = 0;
    public const int KeyExist = -30799;
    public const int NotFound = -30798;
    public const int PageNotFound = -30797;
    public const int Corrupted = -30796;
    public const int Panic = -30795;
    public const int VersionMismatch = -30794;
    public const int Invalid = -30793;
    public const int MapFull = -30792;
    public const int ReadersFull = -30790;
    public const int TxnFull = -30788;
    public const int MapResized = -30785;
    public const int BadChecksum = -30778;
    public const int ShortWrite = -30772; // LMDB 1.0: a write returned fewer bytes than asked (a full disk or a file size limit)

    public const uint NoSubDir = 0x4000;
    public const uint NoSync = 0x10000;
    public const uint NoMetaSync = 0x40000;
    public const uint ReadOnly = 0x20000;
    public const uint NoTls = 0x200000;
    public const uint NoReadAhead = 0x800000;
    public const uint CopyCompact = 0x01;
    public const uint Create = 0x40000;
    public const uint Append = 0x20000;
    public const uint MainDbi = 1;
    public const int Incompatible = -30784;

    public const int First = 0;
    public const int GetCurrent = 4;
    public const int Last = 6;
    public const int Next = 8;
    public const int SetRange = 17;

    [StructLayout(LayoutKind.Sequential)]
    public struct Val
    {
        public nuint Size;
        public byte* Data;

        public Val(byte* data, int size)
        {
            Data = data;
            Size = (nuint)size;
        }

        public readonly ReadOnlySpan<byte> Span => new(Data, checked((int)Size));
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct DbStat
    {
        public uint PageSize;
        public uint Depth;
        public nuint BranchPages;
        public nuint LeafPages;
        public nuint OverflowPages;
        public nuint Entries;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct EnvInfo
    {
        public nint MapAddress;
        public nuint MapSize;
        public nuint LastPage;
        public nuint LastTransaction;
        public uint MaxReaders;
        public uint NumReaders;
    }

    [LibraryImport(Library, EntryPoint = "mdb_version")]
    public static partial nint Version(out int major, out int minor, out int patch);

    [LibraryImport(Library, EntryPoint = "mdb_strerror")]
    public static partial nint StrError(int rc);

    [LibraryImport(Library, EntryPoint = "mdb_env_create")]
    public static partial int EnvCreate(out nint env);

    [LibraryImport(Library, EntryPoint = "mdb_env_open", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int EnvOpen(nint env, string path, uint flags, int mode);

    [LibraryImport(Library, EntryPoint = "mdb_env_close")]
    public static partial void EnvClose(nint env);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_mapsize")]
    public static partial int EnvSetMapSize(nint env, nuint size);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_maxreaders")]
    public static partial int EnvSetMaxReaders(nint env, uint readers);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_maxdbs")]
    public static partial int EnvSetMaxDbs(nint env, uint dbs);

    [LibraryImport(Library, EntryPoint = "mdb_env_info")]
    public static partial int EnvInfoOf(nint env, out EnvInfo info);

    [LibraryImport(Library, EntryPoint = "mdb_env_sync")]
    public static partial int EnvSync(nint env, int force);

    [LibraryImport(Library, EntryPoint = "mdb_env_set_flags")]
    public static partial int EnvSetFlags(nint env, uint flags, int onoff);

    [LibraryImport(Library, EntryPoint = "mdb_env_copy2", StringMarshalling = StringMarshalling.Utf8)]
    public static partial int EnvCopy2(nint env, string path, uint flags);

    [LibraryImport(Library, EntryPoint = "mdb_stat")]
    public static partial int Stat(nint txn, uint dbi, out DbStat stat);

    [LibraryImport(Library, EntryPoint = "mdb_env_get_maxkeysize")]
    public static partial int EnvMaxKeySize(nint env);

    [LibraryImport(Library, EntryPoint = "mdb_reader_check")]
    public static partial int ReaderCheck(nint env, out int dead);

    [LibraryImport(Library, EntryPoint = "mdb_txn_begin")]
    public static partial int TxnBegin(nint env, nint parent, uint flags, out nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_commit")]
    public static partial int TxnCommit(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_abort")]
    public static partial void TxnAbort(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_reset")]
    public static partial void TxnReset(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_txn_renew")]
    public static partial int TxnRenew(nint txn);

    [LibraryImport(Library, EntryPoint = "mdb_dbi_open")]
    public static partial int DbiOpen(nint txn, byte* name, uint flags, out uint dbi);

    [LibraryImport(Library, EntryPoint = "mdb_get")]
    public static partial int Get(nint txn, uint dbi, Val* key, Val* data);

    [LibraryImport(Library, EntryPoint = "mdb_put")]
    public static partial int Put(nint txn, uint dbi, Val* key, Val* data, uint flags);

    [LibraryImport(Library, EntryPoint = "mdb_del")]
    public static partial int Del(nint txn, uint dbi, Val* key, Val* data);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_open")]
    public static partial int CursorOpen(nint txn, uint dbi, out nint cursor);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_close")]
    public static partial void CursorClose(nint cursor);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_renew")]
    public static partial int CursorRenew(nint txn, nint cursor);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_dbi")]
    public static partial uint CursorDbi(nint cursor);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_get")]
    public static partial int CursorGet(nint cursor, Val* key, Val* data, int op);

    [LibraryImport(Library, EntryPoint = "mdb_cursor_del")]
    public static partial int CursorDel(nint cursor, uint flags);

    /// <summary>The library's version string, such as "LMDB 1.0.1: (Aug 6, 2026)".</summary>
    public static string VersionString() => Marshal.PtrToStringUTF8(Version(out _, out _, out _)) ?? "LMDB";

    /// <summary>LMDB's text for a result code (errno text for positive codes).</summary>
    public static string Describe(int rc) => Marshal.PtrToStringUTF8(StrError(rc)) ?? $"error {rc}";
}
