namespace DataStore.Batches;

/// <summary>One entry of a <see cref="WriteBatch"/>: its kind and where its two byte strings sit in the batch's buffer.</summary>
/// <remarks>First is the key, prefix or range start; Second is the value, expected value or range end.</remarks>
internal readonly record struct BatchEntry(BatchEntryKind Kind, long FirstOffset, int FirstLength, long SecondOffset, int SecondLength);
