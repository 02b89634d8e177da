using System.Runtime.InteropServices;

namespace DataStore.RocksDb.Interop;

/// <summary>
/// DataStore's own bindings to RocksDB's C API (<c>rocksdb/c.h</c>), the functions the backend calls and no more:
/// source-generated <see cref="LibraryImportAttribute"/> stubs over blittable signatures (handles as <see cref="nint"/>,
/// byte pointers and <see cref="nuint"/> lengths, <c>char** errptr</c> as <c>out nint</c>), so nothing is generated at run
/// time and the backend works trimmed and under native AOT. The RocksDB package supplies only the native libraries;
/// <see cref="RocksDbLibrary"/> picks and loads the right one. The declarations are grouped by concern in this type's files.
/// </summary>
/// <remarks>
/// Every <c>errptr</c> argument must hold zero when the call starts: RocksDB frees a non-null <c>*errptr</c> before it
/// stores a new message (see <see cref="RocksDbErrors"/>). An error string is freed with <see cref="rocksdb_free"/>.
/// </remarks>
internal static unsafe partial class RocksDbNative
{
    /// <summary>The library name every declaration imports; <see cref="RocksDbLibrary"/> resolves it to a file.</summary>
    public const string Library = "rocksdb";

    /// <summary>Frees memory RocksDB allocated for the caller (error strings).</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_free(nint pointer);
}
