using Microsoft.Extensions.Hosting;

namespace DataStore.Configuration;

/// <summary>
/// Resolves a hosted store's relative <see cref="DataStoreOptions.Path"/> against the host's content root, where the host
/// also reads appsettings.json, rather than the process's working directory (which, for a service or an app started from a
/// shortcut, is a place the user never named).
/// </summary>
internal static class DataStoreContentRoot
{
    public static void Resolve(DataStoreOptions options, IHostEnvironment? environment)
    {
        var path = options.Path;
        if (environment is null || string.IsNullOrWhiteSpace(path) || options.Backend == StoreBackend.InMemory
            || path.IndexOfAny(['\0', '\n', '\r']) >= 0 || Path.IsPathFullyQualified(path) || string.IsNullOrEmpty(environment.ContentRootPath))
        {
            return;
        }

        options.Path = Path.GetFullPath(path, environment.ContentRootPath);
    }
}
