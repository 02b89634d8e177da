namespace DataStore.Packed;

/// <summary>Where a build reads its pairs from: a store's scan, a dump, or an enumerable.</summary>
internal interface IPairSource
{
    /// <summary>Reads the next pair; the spans are valid until the next call. False at the end.</summary>
    bool TryRead(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value);
}
