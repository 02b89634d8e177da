namespace DataStore.ChangeFeed;

/// <summary>Change-log records read from one snapshot of the log, with the latest sequence number of that snapshot (0 for none yet).</summary>
internal sealed record ChangeLogPage(IReadOnlyList<ChangeLogEntry> Records, long Latest);

/// <summary>One stored change-log record: its commit's sequence number and <see cref="ChangeRecord"/> bytes.</summary>
internal readonly record struct ChangeLogEntry(long Sequence, byte[] Record);
