using Microsoft.Extensions.Logging;

namespace DataStore.Sharing;

/// <summary>The broker's log messages (event ids 40-49).</summary>
internal static partial class BrokerLog
{
    [LoggerMessage(EventId = 40, EventName = "StoreOwned", Level = LogLevel.Information, Message = "This process owns the {Backend} store at {Path} and serves it at {Socket}")]
    public static partial void Owning(ILogger logger, StoreBackend backend, string path, string socket);

    [LoggerMessage(EventId = 41, EventName = "StoreClient", Level = LogLevel.Information, Message = "The {Backend} store at {Path} is owned by process {OwnerProcessId}; this process is its client")]
    public static partial void Client(ILogger logger, StoreBackend backend, string path, int ownerProcessId);

    [LoggerMessage(EventId = 42, EventName = "PeerRefused", Level = LogLevel.Warning, Message = "Refused a peer of the store at {Path}: {Reason}")]
    public static partial void PeerRefused(ILogger logger, string path, string reason);

    [LoggerMessage(EventId = 43, EventName = "OwnerLost", Level = LogLevel.Information, Message = "The owner process {OwnerProcessId} of the store at {Path} went away; handing the store over")]
    public static partial void OwnerLost(ILogger logger, int ownerProcessId, string path);
}
