using Microsoft.Extensions.Logging;

namespace DataStore.RocksDb;

/// <summary>The RocksDb backend's log messages, source-generated, with stable event ids (60-69; the README lists them).</summary>
internal static partial class RocksDbLog
{
    [LoggerMessage(EventId = 60, EventName = "RocksDbWalSyncFailed", Level = LogLevel.Warning, Message = "Background sync of the RocksDB WAL at {Path} failed ({Error}); will retry")]
    public static partial void WalSyncFailed(ILogger logger, string path, string error);

    [LoggerMessage(EventId = 61, EventName = "RocksDbCloseFlushFailed", Level = LogLevel.Warning, Message = "Flushing the RocksDB store at {Path} as it closed failed ({Error}); its WAL keeps the writes")]
    public static partial void CloseFlushFailed(ILogger logger, string path, string error);

    [LoggerMessage(EventId = 62, EventName = "RocksDbOpenWalSyncFailed", Level = LogLevel.Warning, Message = "Syncing the RocksDB WAL at {Path} as it opened failed ({Error})")]
    public static partial void OpenWalSyncFailed(ILogger logger, string path, string error);

    [LoggerMessage(EventId = 63, EventName = "RocksDbSyncMarkFailed", Level = LogLevel.Warning, Message = "Recording the synced end of the RocksDB WAL at {Path} failed")]
    public static partial void SyncMarkFailed(ILogger logger, Exception exception, string path);
}
