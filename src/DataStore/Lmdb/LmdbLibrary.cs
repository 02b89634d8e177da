using System.Reflection;
using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

/// <summary>
/// Finds the LMDB native library: the one the LightningDB package ships first (LMDB 1.0.1), then the system's
/// (Debian's <c>liblmdb0</c>, LMDB 0.9), because the package's Linux build needs glibc 2.38 and does not load on
/// older systems such as Debian 12. The two versions' file formats differ, so a store records which one made it
/// (<see cref="FormatFile"/>) and refuses to open under the other.
/// </summary>
internal static class LmdbLibrary
{
    /// <summary>The side file that names the LMDB format (major.minor) a store's data file was written in.</summary>
    public const string FormatFile = "lmdb-format";

    private static readonly string[] SystemNames = ["liblmdb.so.0", "liblmdb.so", "liblmdb.0.dylib", "liblmdb.dylib"];
    private static int _installed;

    /// <summary>Routes the backend's <c>lmdb</c> imports through <see cref="Resolve"/> (once per process).</summary>
    public static void InstallResolver()
    {
        if (Interlocked.Exchange(ref _installed, 1) != 0)
        {
            return;
        }

        try
        {
            NativeLibrary.SetDllImportResolver(typeof(LmdbLibrary).Assembly, Resolve);
        }
        catch (InvalidOperationException)
        {
            // Another resolver owns this assembly's imports; the runtime's default probing still finds the package's library.
        }
    }

    /// <summary>The loaded library's format, such as "LMDB 0.9".</summary>
    public static string Format()
    {
        _ = LmdbNative.Version(out var major, out var minor, out _);
        return $"LMDB {major}.{minor}";
    }

    /// <summary>Records the format of a new store, or checks an existing store's against the loaded library.</summary>
    public static void CheckFormat(string directory, bool dataFileExists)
    {
        var path = System.IO.Path.Combine(directory, FormatFile);
        var current = Format();
        var recorded = dataFileExists && File.Exists(path) ? File.ReadAllText(path).Trim() : "";
        if (recorded.Length == 0)
        {
            Record(path, current);
            return;
        }

        if (recorded != current)
        {
            throw new StoreFormatException(StoreFailure.Unavailable, directory, StoreBackend.Lmdb,
                $"the store was written in the {recorded} file format, but the LMDB library loaded on this machine is {LmdbNative.VersionString()}, " +
                "whose format differs. Open it where that LMDB version loads, or export it there and import it here.");
        }
    }

    // Written whole under another name and renamed into place: a process opening the same new store at the same
    // moment reads either no file or the whole name, never an empty one (a store with no name, or an empty one
    // left by a crash, gets the loaded library's). The record is synced before the rename and its directory after.
    private static void Record(string path, string format) => Platform.SyncedFile.Replace(path, System.Text.Encoding.UTF8.GetBytes(format));

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (name != "lmdb")
        {
            return 0;
        }

        if (NativeLibrary.TryLoad(name, assembly, searchPath, out var handle))
        {
            return handle;
        }

        foreach (var candidate in SystemNames)
        {
            if (NativeLibrary.TryLoad(candidate, out handle))
            {
                return handle;
            }
        }

        return 0;
    }
}
