namespace DataStore;

/// <summary>The precondition that stopped a batch.</summary>
/// <param name="Index">Its position among the batch's preconditions, in the order they were added.</param>
/// <param name="Key">The key it tested.</param>
/// <param name="Kind">What it required.</param>
public sealed record PreconditionFailure(int Index, byte[] Key, PreconditionKind Kind)
{
    /// <summary>A one-line description, with the key in hex.</summary>
    public override string ToString() =>
        $"precondition {Index} failed: key {Convert.ToHexString(Key.AsSpan(0, Math.Min(Key.Length, 64)))}{(Key.Length > 64 ? "..." : "")} " +
        (Kind == PreconditionKind.KeyAbsent ? "is present" : "does not hold the expected value");
}
