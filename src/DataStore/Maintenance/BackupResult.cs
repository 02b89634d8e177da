namespace DataStore;

/// <summary>A finished backup: where it is and how large it is.</summary>
/// <param name="Path">The backup's directory, which opens as a normal store.</param>
/// <param name="Bytes">The size of the backup's files.</param>
public sealed record BackupResult(string Path, long Bytes);
