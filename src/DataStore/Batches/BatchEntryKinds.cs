namespace DataStore.Batches;

/// <summary>
/// The one rule of what each <see cref="BatchEntryKind"/> is: an operation or a precondition, and whether it carries a
/// second byte string (a value, an expected value or a range end) after its first (a key, a prefix or a range start).
/// </summary>
internal static class BatchEntryKinds
{
    /// <summary>True for a put or a delete of any kind, which applies to the store.</summary>
    public static bool IsOperation(this BatchEntryKind kind) =>
        kind is BatchEntryKind.Put or BatchEntryKind.Delete or BatchEntryKind.DeletePrefix or BatchEntryKind.DeleteRange;

    /// <summary>True for a precondition, which is checked against the store and changes nothing.</summary>
    public static bool IsPrecondition(this BatchEntryKind kind) => kind is BatchEntryKind.RequireAbsent or BatchEntryKind.RequireValue;

    /// <summary>True when the entry carries a second byte string; an entry of any other kind has an empty one.</summary>
    public static bool HasSecond(this BatchEntryKind kind) => kind is BatchEntryKind.Put or BatchEntryKind.DeleteRange or BatchEntryKind.RequireValue;
}
