namespace DataStore.Transfer;

/// <summary>Opens the whole-store reads of export, migrate, verify and the pair count.</summary>
/// <remarks>The reading thread never writes to <c>store</c> while the cursor is open (see <see cref="Backends.IBackendMaintenance.ReadWholeStore"/>).</remarks>
internal static class WholeStore
{
    /// <summary>A read of every pair in key order in bounded memory where the backend has one, else a scan of everything.</summary>
    public static IKeyValueCursor Read(IKeyValueStore store, bool keysOnly = false) =>
        store is Backends.IBackendMaintenance backend ? backend.ReadWholeStore(keysOnly) : store.ScanPrefix([], keysOnly);
}
