using Microsoft.Extensions.Logging;

namespace DataStore.Backends;

/// <summary>Opens the stores of one backend; <see cref="BackendCatalog"/> holds one per <see cref="StoreBackend"/>.</summary>
internal interface IBackendFactory
{
    /// <summary>True when this build can open the backend's stores (its engine and native libraries are present).</summary>
    bool IsAvailable { get; }

    /// <summary>Why <see cref="IsAvailable"/> is false, in the backend's words (which file was looked for, and where); null when it gives none.</summary>
    string? WhyUnavailable => null;

    /// <summary>
    /// Opens the store in <paramref name="directory"/>, whose manifest names this backend; <paramref name="settings"/> are what the
    /// backend may use of that manifest, read once by the caller (the backend never reads it again).
    /// </summary>
    /// <remarks>
    /// A <see cref="KeyValueStoreBase"/>, so the store the open path returns holds the open lock (ADR 0020) whatever its type:
    /// its <see cref="KeyValueStoreBase.Dispose()"/> releases the lock after the engine.
    /// </remarks>
    /// <exception cref="DataStoreException">The engine refused the store; the message names path, backend and cause.</exception>
    KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings);
}
