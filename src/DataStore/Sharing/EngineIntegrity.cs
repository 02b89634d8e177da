namespace DataStore.Sharing;

/// <summary>The owner's engine's own integrity check, run where the engine is open (for the owner and for its clients).</summary>
internal static class EngineIntegrity
{
    public static IReadOnlyList<string> Check(IKeyValueStore engine) =>
        engine is Backends.IBackendMaintenance core ? core.CheckIntegrity(CancellationToken.None) : [];
}
