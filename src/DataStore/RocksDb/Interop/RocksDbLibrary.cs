using System.Reflection;
using System.Runtime.InteropServices;

namespace DataStore.RocksDb.Interop;

/// <summary>
/// Finds and loads RocksDB's native library for <see cref="RocksDbNative"/>, picking the file the RocksDB package ships for
/// this platform (glibc Linux <c>librocksdb.so</c>, musl Linux <c>librocksdb-musl.so</c>, Windows <c>rocksdb.dll</c>, macOS
/// <c>librocksdb.dylib</c>) from the application's directory, its <c>runtimes/&lt;rid&gt;/native</c> folder, or the
/// runtime's own probing paths; then resolves every <see cref="RocksDbNative.Library"/> import of the DataStore assembly to it
/// through <see cref="Platform.NativeImports"/>. The file comes with the package DataStore.RocksDb (ADR 0010); the code is DataStore's.
/// </summary>
internal static class RocksDbLibrary
{
    // A function of the RocksDB package's build that stock RocksDB lacks: another librocksdb found on the system is refused.
    private const string RequiredExport = "rocksdb_get_into_buffer";

    private static readonly Lazy<string?> Loaded = new(Load);
    private static nint _handle;

    /// <summary>Null once the library is loaded; otherwise what was looked for, where, and why it did not load.</summary>
    public static string? Failure => Loaded.Value;

    /// <summary>The file name of this platform's build in the RocksDB package.</summary>
    public static string FileName(bool windows, bool macOs, string runtimeIdentifier) =>
        windows ? "rocksdb.dll" :
        macOs ? "librocksdb.dylib" :
        runtimeIdentifier.StartsWith("linux-musl", StringComparison.Ordinal) ? "librocksdb-musl.so" : "librocksdb.so";

    /// <summary>The directories searched, in order: the application's, then its <c>runtimes/&lt;rid&gt;/native</c> folders.</summary>
    public static IReadOnlyList<string> Directories(string baseDirectory, string runtimeIdentifier, string packageRid) =>
    [
        baseDirectory,
        Path.Combine(baseDirectory, "runtimes", runtimeIdentifier, "native"),
        .. packageRid == runtimeIdentifier ? Array.Empty<string>() : [Path.Combine(baseDirectory, "runtimes", packageRid, "native")],
    ];

    /// <summary>
    /// Loads <paramref name="file"/> from the first of <paramref name="directories"/> that holds a usable copy, then (when
    /// <paramref name="assembly"/> is given) through the runtime's probing for it; null and the handle, or the failure.
    /// </summary>
    public static string? TryLoad(string file, IReadOnlyList<string> directories, Assembly? assembly, out nint handle)
    {
        var refused = new List<string>();
        foreach (var path in directories.Select(directory => Path.Combine(directory, file)).Where(File.Exists))
        {
            if (TryLoadFile(path, refused, out handle))
            {
                return null;
            }
        }

        if (assembly is not null && NativeLibrary.TryLoad(file, assembly, null, out handle))
        {
            if (HasRequiredExport(handle, file, refused))
            {
                return null;
            }
        }

        handle = 0;
        var places = string.Join(", ", directories) + (assembly is null ? "" : " and the runtime's native library paths");
        var why = refused.Count == 0 ? "" : $" ({string.Join("; ", refused)})";
        return $"the RocksDB backend's native library ships in the package DataStore.RocksDb; add a reference to it (and publish for a platform it ships): {file} did not load, looked in {places}{why}";
    }

    private static string? Load()
    {
        var rid = RuntimeInformation.RuntimeIdentifier;
        var packageRid = $"{(OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux")}-{RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant()}";
        var file = FileName(OperatingSystem.IsWindows(), OperatingSystem.IsMacOS(), rid);
        var assembly = typeof(RocksDbLibrary).Assembly;
        var failure = TryLoad(file, Directories(AppContext.BaseDirectory, rid, packageRid), assembly, out _handle);
        if (failure is null)
        {
            // The DataStore assembly has one resolver, shared with LMDB's.
            if (!Platform.NativeImports.Route(RocksDbNative.Library, (_, _, _) => _handle))
            {
                return $"RocksDB's native library {file} loaded, but the application set its own DllImport resolver on the DataStore assembly, so the backend cannot bind to it";
            }
        }

        return failure;
    }

    private static bool TryLoadFile(string path, List<string> refused, out nint handle)
    {
        try
        {
            handle = NativeLibrary.Load(path);
        }
        catch (Exception e) when (e is DllNotFoundException or BadImageFormatException)
        {
            refused.Add($"{path}: {e.Message}");
            handle = 0;
            return false;
        }

        return HasRequiredExport(handle, path, refused);
    }

    private static bool HasRequiredExport(nint handle, string name, List<string> refused)
    {
        if (NativeLibrary.TryGetExport(handle, RequiredExport, out _))
        {
            return true;
        }

        refused.Add($"{name} lacks {RequiredExport}, so it is not the RocksDB package's build");
        NativeLibrary.Free(handle);
        return false;
    }
}
