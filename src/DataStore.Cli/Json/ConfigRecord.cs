namespace DataStore.Cli.Json;

/// <summary>The result of <c>config --json</c>: the store's settings after the command, and whether it changed them.</summary>
internal sealed record ConfigRecord(string Path, string Backend, int FormatVersion, bool ChangeFeed, int? FeedRetention, bool Changed);
