namespace DataStore.InMemory;

/// <summary>One pair of an in-memory store; entries compare by key only.</summary>
internal sealed record InMemoryEntry(byte[] Key, byte[] Value)
{
    public static readonly IComparer<InMemoryEntry> ByKey =
        Comparer<InMemoryEntry>.Create((x, y) => x.Key.AsSpan().SequenceCompareTo(y.Key));
}
