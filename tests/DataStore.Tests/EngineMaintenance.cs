using DataStore.Backends;

namespace DataStore.Tests;

/// <summary>
/// The maintenance side of a store DataStore opened (the engine's backup and integrity check), reached through the
/// interface the library's own backup and verify use, not a downcast to the stores' base class.
/// </summary>
internal static class EngineMaintenance
{
    /// <summary>The store's maintenance interface; fails the test when the store has none (a store DataStore did not open).</summary>
    public static IBackendMaintenance Of(IKeyValueStore store) => Assert.IsAssignableFrom<IBackendMaintenance>(store);

    /// <summary>What the engine's own integrity check found wrong (empty when nothing).</summary>
    public static IReadOnlyList<string> CheckIntegrity(IKeyValueStore store, CancellationToken cancellationToken) =>
        Of(store).CheckIntegrity(cancellationToken);
}
