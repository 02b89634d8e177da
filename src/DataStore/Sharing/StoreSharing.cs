namespace DataStore;

/// <summary>Whether this process owns the store's engine or is a client of another process that does (for diagnostics).</summary>
/// <param name="Role">How this process reaches the engine.</param>
/// <param name="OwnerProcessId">The process that owns the engine (this process unless <paramref name="Role"/> is <see cref="StoreRole.Client"/>).</param>
public sealed record StoreSharing(StoreRole Role, int OwnerProcessId)
{
    /// <summary>This process opened the engine itself.</summary>
    public static StoreSharing Direct { get; } = new(StoreRole.Direct, Environment.ProcessId);
}
