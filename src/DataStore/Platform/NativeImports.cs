using System.Collections.Concurrent;
using System.Reflection;
using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// The one DllImport resolver of the DataStore assembly: the runtime takes a single resolver per assembly (a second
/// <see cref="NativeLibrary.SetDllImportResolver"/> throws), so each backend that loads its own native library (LMDB,
/// RocksDB) routes its import name here and this resolver hands the name to that backend's loader.
/// </summary>
internal static class NativeImports
{
    private static readonly ConcurrentDictionary<string, DllImportResolver> Routes = new(StringComparer.Ordinal);
    private static readonly Lock Gate = new();
    private static bool _installed;
    private static bool _refused;

    /// <summary>
    /// Resolves imports of <paramref name="library"/> with <paramref name="resolver"/>; false when the application had
    /// already set its own resolver on this assembly (the backend then finds no library and says so).
    /// </summary>
    public static bool Route(string library, DllImportResolver resolver)
    {
        Routes[library] = resolver;
        lock (Gate)
        {
            if (!_installed && !_refused)
            {
                try
                {
                    NativeLibrary.SetDllImportResolver(typeof(NativeImports).Assembly, Resolve);
                    _installed = true;
                }
                catch (InvalidOperationException)
                {
                    _refused = true;
                }
            }

            return _installed;
        }
    }

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath) =>
        Routes.TryGetValue(name, out var resolver) ? resolver(name, assembly, searchPath) : 0;
}
