using Microsoft.Extensions.Logging;

namespace DataStore.Diagnostics;

/// <summary>DataStore's log messages, source-generated, each with a stable event id (documented in the README).</summary>
internal static partial class StoreLog
{
    [LoggerMessage(EventId = 1, EventName = "StoreOpened", Level = LogLevel.Debug, Message = "Opened {Backend} store at {Path} ({Durability})")]
    public static partial void Opened(ILogger logger, StoreBackend backend, string path, Durability durability);

    [LoggerMessage(EventId = 2, EventName = "StoreOpenFailed", Level = LogLevel.Error, Message = "Opening the store at {Path} failed")]
    public static partial void OpenFailed(ILogger logger, Exception error, string path);

    [LoggerMessage(EventId = 3, EventName = "BackgroundSyncFailed", Level = LogLevel.Warning, Message = "Background sync of the {Backend} store at {Path} failed; will retry")]
    public static partial void BackgroundSyncFailed(ILogger logger, Exception error, StoreBackend backend, string path);

    [LoggerMessage(EventId = 4, EventName = "UnfinishedChangeCompleted", Level = LogLevel.Warning, Message = "Completing a change that a writer of the {Backend} store at {Path} left unfinished")]
    public static partial void CompletingUnfinishedChange(ILogger logger, StoreBackend backend, string path);

    [LoggerMessage(EventId = 5, EventName = "StoreCloseFailed", Level = LogLevel.Warning, Message = "Closing the {Backend} store at {Path} failed")]
    public static partial void CloseFailed(ILogger logger, Exception error, StoreBackend backend, string path);

    [LoggerMessage(EventId = 6, EventName = "EngineReopened", Level = LogLevel.Warning, Message = "The engine of the {Backend} store at {Path} stopped; reopened: {Reopened}")]
    public static partial void EngineReopened(ILogger logger, Exception error, StoreBackend backend, string path, bool reopened);

}
