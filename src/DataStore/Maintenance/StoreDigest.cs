namespace DataStore;

/// <summary>What a store holds, in short: the number of pairs, their total size and a checksum over every pair in key order.</summary>
/// <remarks>Two stores hold the same pairs exactly when their digests are equal, whatever their backends.</remarks>
/// <param name="Pairs">How many key-value pairs.</param>
/// <param name="Bytes">The total length of every key and value.</param>
/// <param name="Checksum">A lowercase hexadecimal SHA-256 over every pair in key order (the encoding is in docs/dump-format.md).</param>
public sealed record StoreDigest(long Pairs, long Bytes, string Checksum);
