namespace DataStore;

/// <summary>What a store's manifest (<c>datastore.json</c>) records, read without opening the store: <see cref="StoreConfiguration.Read"/>.</summary>
public sealed class StoreInfo
{
    internal StoreInfo(string path, StoreBackend backend, int formatVersion, Durability durability)
    {
        Path = path;
        Backend = backend;
        FormatVersion = formatVersion;
        Durability = durability;
    }

    /// <summary>The store's directory, as a full path.</summary>
    public string Path { get; }

    /// <summary>The engine that holds the store's pairs.</summary>
    public StoreBackend Backend { get; }

    /// <summary>The store's format version: 1 (no pair checksums), 2, 3 (change feed on) or 4 (Sqlite page checksums).</summary>
    public int FormatVersion { get; }

    /// <summary>The durability a process gets when it opens the store without naming one.</summary>
    public Durability Durability { get; }
}
