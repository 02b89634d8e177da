using Microsoft.Extensions.Logging;

namespace DataStore.ChangeFeed;

/// <summary>The change feed's log messages (event ids 20 and up).</summary>
internal static partial class ChangeFeedLog
{
    [LoggerMessage(EventId = 20, EventName = "ChangeLogPruneFailed", Level = LogLevel.Warning, Message = "Pruning the change log of the store at {Path} failed; will retry")]
    public static partial void PruneFailed(ILogger logger, Exception error, string path);

    [LoggerMessage(EventId = 21, EventName = "ChangeSignalFailed", Level = LogLevel.Warning, Message = "Waking the change-feed subscribers of the store at {Path} failed; they catch up within their safety poll")]
    public static partial void SignalFailed(ILogger logger, Exception error, string path);
}
