using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DataStore.Sqlite.Pages;

/// <summary>
/// A VFS shim over SQLite's default VFS that keeps a checksum in every page of a database whose header reserves 8 bytes
/// per page (ADR 0023): computed as a page is written to the database file, checked as it is read back. Every store
/// connection opens through it; a database without the reserved bytes (a store written before) is handed the default
/// VFS's own methods and runs exactly as it did.
/// </summary>
/// <remarks>
/// The default VFS's file structure sits at the start of ours and <see cref="CheckedFileState"/> after it, so every
/// method the shim does not replace is the default VFS's own function, called with no managed transition (locks and
/// shared memory included). Only xRead, xWrite and xFetch of main database files are replaced. Write-ahead-log files
/// keep their bytes as SQLite writes them (a page checksum written into a frame after SQLite summed it would break its
/// chained frame checksums); only their xWrite is replaced, to record each new log header (<see cref="SqliteWalFile"/>).
/// </remarks>
internal static unsafe partial class SqlitePageVfs
{
    /// <summary>The VFS name store connections pass to <c>sqlite3_open_v2</c>.</summary>
    public const string Name = "datastore-page-checksums";

    /// <summary>
    /// The same shim for a connection that creates a database with checksums (a new store, a backup of a checked one): an
    /// empty file is checked from its first write, whichever page SQLite writes first.
    /// </summary>
    public const string CreatingName = "datastore-page-checksums-new";

    private const int OpenMainDb = 0x00000100;
    private const int OpenWal = 0x00080000;
    private const int HeaderSize = 100;

    private static readonly Lock Gate = new();
    private static readonly List<(IntPtr Original, bool Wal, IntPtr Replaced)> MethodTables = [];
    private static SqliteVfs* _root;
    private static SqliteVfs* _creating;
    private static int _stateOffset;
    private static bool _registered;

    /// <summary>Registers the shim once per process (after SQLite is initialised); returns <see cref="Name"/>, or <see cref="CreatingName"/> when <paramref name="creating"/>.</summary>
    /// <exception cref="InvalidOperationException">SQLite has no default VFS or refused the registration.</exception>
    public static string Register(bool creating = false)
    {
        lock (Gate)
        {
            if (!_registered)
            {
                var root = FindVfs(null);
                if (root is null)
                {
                    throw new InvalidOperationException("SQLite has no default VFS to put the page-checksum shim over.");
                }

                _root = root;
                _stateOffset = (root->FileSize + 7) & ~7;
                Add(root, Name);
                _creating = Add(root, CreatingName);
                _registered = true;
            }

            return creating ? CreatingName : Name;
        }
    }

    private static SqliteVfs* Add(SqliteVfs* root, string name)
    {
        var vfs = (SqliteVfs*)NativeMemory.AllocZeroed((nuint)sizeof(SqliteVfs));
        *vfs = *root; // every method but xOpen is the default VFS's own (they use only AppData and MaxPathname, copied too)
        vfs->Version = Math.Min(root->Version, 3);
        vfs->FileSize = _stateOffset + sizeof(CheckedFileState);
        vfs->Next = null;
        vfs->Name = Utf8Z(name);
        vfs->Open = &Open;
        var rc = RegisterVfs(vfs, 0);
        return rc == 0 ? vfs : throw new InvalidOperationException($"SQLite refused to register the page-checksum VFS {name} (code {rc}).");
    }

    /// <summary>The shim's state of <paramref name="file"/>, after the default VFS's file structure.</summary>
    public static CheckedFileState* State(SqliteFile* file) => (CheckedFileState*)((byte*)file + _stateOffset);

    /// <summary>True when <paramref name="header"/> (at least 100 bytes) starts a SQLite database with 8 reserved bytes per page.</summary>
    public static bool ReservesChecksum(ReadOnlySpan<byte> header) =>
        header.Length >= HeaderSize && header[..16].SequenceEqual("SQLite format 3\0"u8) && header[20] == PageChecksum.Size;

    [UnmanagedCallersOnly(CallConvs = [typeof(CallConvCdecl)])]
    private static int Open(SqliteVfs* vfs, byte* name, SqliteFile* file, int flags, int* outFlags)
    {
        var rc = _root->Open(_root, name, file, flags, outFlags);
        var wal = (flags & OpenWal) != 0 && name is not null;
        if (rc != 0 || ((flags & OpenMainDb) == 0 && !wal) || file->Methods is null)
        {
            return rc;
        }

        var state = State(file);
        state->Original = file->Methods;
        state->Name = wal ? name : null;
        if (!wal)
        {
            // A database file that exists without the reserved bytes keeps the default methods: no shim on its path at all.
            var header = stackalloc byte[HeaderSize];
            var read = file->Methods->Read(file, header, HeaderSize, 0);
            state->Checked = read == 0 ? (ReservesChecksum(new ReadOnlySpan<byte>(header, HeaderSize)) ? 1 : 0) : (vfs == _creating ? 1 : 0);
            if (read == 0 && state->Checked == 0)
            {
                return 0;
            }
        }

        try
        {
            file->Methods = MethodsFor(file->Methods, wal);
            return 0;
        }
        catch (Exception e)
        {
            SqlitePageFault.Record(e);
            if (file->Methods->Close != IntPtr.Zero)
            {
                ((delegate* unmanaged[Cdecl]<SqliteFile*, int>)file->Methods->Close)(file);
            }

            file->Methods = null;
            return SqlitePageFault.IoError;
        }
    }

    // One replaced method table per original table (the default VFS uses one or two) and kind of file, kept for the life of the process.
    private static SqliteIoMethods* MethodsFor(SqliteIoMethods* original, bool wal)
    {
        lock (Gate)
        {
            foreach (var (known, knownWal, replaced) in MethodTables)
            {
                if (known == (IntPtr)original && knownWal == wal)
                {
                    return (SqliteIoMethods*)replaced;
                }
            }

            var methods = (SqliteIoMethods*)NativeMemory.AllocZeroed((nuint)sizeof(SqliteIoMethods));
            *methods = *original;
            if (wal)
            {
                methods->Write = &SqliteWalFile.Write;
            }
            else
            {
                methods->Read = &SqlitePageFile.Read;
                methods->Write = &SqlitePageFile.Write;
                if (original->Version >= 3)
                {
                    methods->Fetch = &SqlitePageFile.Fetch;
                }
            }

            MethodTables.Add(((IntPtr)original, wal, (IntPtr)methods));
            return methods;
        }
    }

    private static byte* Utf8Z(string text)
    {
        var bytes = System.Text.Encoding.UTF8.GetBytes(text + "\0");
        var copy = (byte*)NativeMemory.Alloc((nuint)bytes.Length);
        bytes.CopyTo(new Span<byte>(copy, bytes.Length));
        return copy;
    }

    [LibraryImport("e_sqlite3", EntryPoint = "sqlite3_vfs_find", StringMarshalling = StringMarshalling.Utf8)]
    [UnmanagedCallConv(CallConvs = [typeof(CallConvCdecl)])]
    private static partial SqliteVfs* FindVfs(string? name);

    [LibraryImport("e_sqlite3", EntryPoint = "sqlite3_vfs_register")]
    [UnmanagedCallConv(CallConvs = [typeof(CallConvCdecl)])]
    private static partial int RegisterVfs(SqliteVfs* vfs, int makeDefault);
}
