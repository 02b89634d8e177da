namespace DataStore.LiteDb;

/// <summary>Two spans (key and value, or range start and end) handed to a write without copying them.</summary>
internal readonly ref struct LiteDbSpans(ReadOnlySpan<byte> first, ReadOnlySpan<byte> second)
{
    public ReadOnlySpan<byte> First { get; } = first;

    public ReadOnlySpan<byte> Second { get; } = second;
}
