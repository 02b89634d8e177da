using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

/// <summary>The FileSystem backend's own log messages (event ids 80-89; listed in the README).</summary>
internal static partial class FileSystemLog
{
    [LoggerMessage(EventId = 80, EventName = "FileSystemSlowPut", Level = LogLevel.Information,
        Message = "A Put on the FileSystem store at {Path} took {Milliseconds:F1} ms: {Steps} (ms per step)")]
    public static partial void SlowPut(ILogger logger, string path, double milliseconds, string steps);

    [LoggerMessage(EventId = 81, EventName = "FileSystemSplitPreparationFailed", Level = LogLevel.Warning,
        Message = "Preparing a directory split beside the writers of the FileSystem store at {Path} failed; the directory splits under the write lock when full")]
    public static partial void SplitPreparationFailed(ILogger logger, Exception exception, string path);

    [LoggerMessage(EventId = 82, EventName = "FileSystemSplitPrepared", Level = LogLevel.Information,
        Message = "Split the directory of prefix {Prefix} of the FileSystem store at {Path} beside the writers: {Holds} holds of the write lock, the longest {LongestMilliseconds:F1} ms, {Changes} names relinked at the publish, {TotalMilliseconds:F0} ms in all; holds per step: {Steps}; {SyncsUnderLock} syncs under the lock")]
    public static partial void SplitPrepared(ILogger logger, string prefix, string path, int holds, double longestMilliseconds, int changes, double totalMilliseconds, string steps, int syncsUnderLock);
}
