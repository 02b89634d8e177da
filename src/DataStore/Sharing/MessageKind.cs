namespace DataStore.Sharing;

/// <summary>The first byte of every broker message: requests from a client, answers and pushed messages from the owner.</summary>
internal enum MessageKind : byte
{
    /// <summary>Client's first message: magic and protocol version.</summary>
    Hello = 1,
    Get = 2,
    HaveKey = 3,
    Put = 4,
    Delete = 5,
    DeleteRange = 6,
    Write = 7,
    Compact = 8,
    ScanOpen = 9,
    ScanNext = 10,
    ScanClose = 11,
    Backup = 12,
    CheckIntegrity = 13,

    /// <summary>Change-log records after a sequence (the change feed, ADR 0020), read by the owner's engine.</summary>
    ReadChanges = 14,

    /// <summary>The request succeeded; the payload depends on the request.</summary>
    Ok = 128,

    /// <summary>The request failed (<see cref="BrokerErrors"/>), or the owner is closing and did not apply it.</summary>
    Error = 129,

    /// <summary>Reserved: a message the owner pushes without a request (the change feed's events, issue 15).</summary>
    Notification = 130,
}
