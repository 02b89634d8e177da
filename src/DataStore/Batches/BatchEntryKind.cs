namespace DataStore.Batches;

/// <summary>What one entry of a <see cref="WriteBatch"/> does.</summary>
internal enum BatchEntryKind : byte
{
    Put,
    Delete,
    DeletePrefix,
    DeleteRange,
    RequireAbsent,
    RequireValue,
}
