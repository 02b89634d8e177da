namespace DataStore.Sharing;

/// <summary>
/// Declared by a backend's factory to say how its stores are shared between processes. A backend whose engine admits one
/// process at a time declares <see cref="NeedsOwnerProcess"/>, and the library then shares its stores through an owner
/// process (ADR 0015): the first process owns the engine, the others reach it over a local socket.
/// </summary>
/// <remarks>Public so that a backend shipped in its own package declares it without access to the library's internals.</remarks>
public interface IBackendSharing
{
    /// <summary>True when the engine cannot be opened by two processes at once, so the library must broker it.</summary>
    bool NeedsOwnerProcess { get; }

    /// <summary>
    /// True when the engine's <see cref="IKeyValueStore.Compact"/> makes every writer wait for the whole rewrite; the owner
    /// then refuses a compaction at once while another process uses the store, instead of failing that process's writes.
    /// </summary>
    bool CompactBlocksWriters => false;
}
