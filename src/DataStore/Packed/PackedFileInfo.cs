namespace DataStore;

/// <summary>What a Packed store's file holds, read from its header and footer (docs/packed-format.md): for <c>datastore info</c> and diagnostics.</summary>
/// <param name="FormatVersion">The packed file's format version (not the manifest's).</param>
/// <param name="Pairs">Pairs in the file.</param>
/// <param name="Blocks">Blocks the pairs are stored in.</param>
/// <param name="KeyBytes">The keys' bytes before compression.</param>
/// <param name="ValueBytes">The values' bytes.</param>
/// <param name="IndexBytes">The sparse index: one entry and the first key per block.</param>
/// <param name="HashTableBytes">The hash table for point lookups.</param>
/// <param name="FileBytes">The whole file.</param>
public sealed record PackedFileInfo(int FormatVersion, long Pairs, long Blocks, long KeyBytes, long ValueBytes, long IndexBytes, long HashTableBytes, long FileBytes);
