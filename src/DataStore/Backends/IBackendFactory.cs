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
    /// Opens the store in <paramref name="directory"/>, whose manifest names this backend; <paramref name="checksums"/> is the
    /// manifest's setting: pairs are stored with a checksum and checked on reads (ADR 0014).
    /// </summary>
    /// <exception cref="DataStoreException">The engine refused the store; the message names path, backend and cause.</exception>
    IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, bool checksums);
}
