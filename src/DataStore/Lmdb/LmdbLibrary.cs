using System.Reflection;
using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

/// <summary>
/// Loads the one LMDB the backend runs on: LMDB 1.0.1 everywhere. On Linux that is our own build,
/// <c>libdatastore-lmdb.so</c> (ADR 0016: the LightningDB package's needs glibc 2.38), loaded by its full path from
/// the application's directory or its <c>runtimes/&lt;rid&gt;/native</c> folder; on Windows and macOS the LightningDB
/// package's. A system LMDB is never loaded: a library whose <c>mdb_version</c> is not 1.0 is refused.
/// </summary>
internal static unsafe class LmdbLibrary
{
    /// <summary>The file name of our Linux build of LMDB.</summary>
    public const string LinuxFileName = "libdatastore-lmdb.so";

    private const int Major = 1;
    private const int Minor = 0;
    private static int _installed;

    /// <summary>Routes the backend's <c>lmdb</c> imports through <see cref="Resolve"/> (once per process).</summary>
    public static void InstallResolver()
    {
        if (Interlocked.Exchange(ref _installed, 1) != 0)
        {
            return;
        }

        // One resolver per assembly, shared with the RocksDB backend; if the application owns it, the backend finds no library and says so.
        Platform.NativeImports.Route("lmdb", Resolve);
    }

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
    {
        if (name != "lmdb")
        {
            return 0;
        }

        if (!OperatingSystem.IsLinux())
        {
            return NativeLibrary.TryLoad(name, assembly, searchPath, out var handle) ? Checked(handle) : 0;
        }

        foreach (var path in LinuxCandidates())
        {
            if (File.Exists(path) && NativeLibrary.TryLoad(path, out var handle))
            {
                return Checked(handle);
            }
        }

        // An application run from NuGet's cache (its deps.json names the package's runtimes folder): the runtime's
        // own probing by the unique file name, which no system library carries.
        if (NativeLibrary.TryLoad(LinuxFileName, assembly, DllImportSearchPath.AssemblyDirectory, out var probed))
        {
            return Checked(probed);
        }

        return 0; // the backend is then unavailable on this machine
    }

    private static IEnumerable<string> LinuxCandidates()
    {
        var rid = RuntimeInformation.ProcessArchitecture switch
        {
            Architecture.X64 => "linux-x64",
            Architecture.Arm64 => "linux-arm64",
            var other => "linux-" + other.ToString().ToLowerInvariant(),
        };
        yield return System.IO.Path.Combine(AppContext.BaseDirectory, "runtimes", rid, "native", LinuxFileName);
        yield return System.IO.Path.Combine(AppContext.BaseDirectory, LinuxFileName);
    }

    // Keeps the library only when it is the LMDB version the file format needs.
    private static nint Checked(nint handle)
    {
        if (!NativeLibrary.TryGetExport(handle, "mdb_version", out var export))
        {
            NativeLibrary.Free(handle);
            return 0;
        }

        int major, minor, patch;
        _ = ((delegate* unmanaged<int*, int*, int*, nint>)export)(&major, &minor, &patch);
        if (major != Major || minor != Minor)
        {
            NativeLibrary.Free(handle);
            return 0;
        }

        return handle;
    }
}
