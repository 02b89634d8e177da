namespace DataStore;

/// <summary>A store's change-feed setting, as its manifest records it (ADR 0020).</summary>
public sealed class ChangeFeedConfiguration
{
    internal ChangeFeedConfiguration(string path, StoreBackend backend, int formatVersion, bool enabled, int retention, bool changed)
    {
        Path = path;
        Backend = backend;
        FormatVersion = formatVersion;
        Enabled = enabled;
        Retention = retention;
        Changed = changed;
    }

    /// <summary>The store's directory.</summary>
    public string Path { get; }

    /// <summary>The store's backend.</summary>
    public StoreBackend Backend { get; }

    /// <summary>The manifest's format version: 3 with the change feed on, 2 (or 1, a store without checksums) with it off.</summary>
    public int FormatVersion { get; }

    /// <summary>True when every commit writes a change-log record, so <c>Watch</c> works.</summary>
    public bool Enabled { get; }

    /// <summary>How many of the latest commits the log keeps (meaningful when <see cref="Enabled"/>).</summary>
    public int Retention { get; }

    /// <summary>True when the call changed the setting; false when the store already had it.</summary>
    public bool Changed { get; }
}
