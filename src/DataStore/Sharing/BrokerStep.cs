namespace DataStore.Sharing;

/// <summary>The steps of a batch written through the broker, timed by <see cref="BrokerSteps"/>.</summary>
internal enum BrokerStep
{
    /// <summary>Client: the batch encoded into the request's frame buffer.</summary>
    ClientEncode,

    /// <summary>Client: the request handed to the socket (returns once the kernel has taken all of it).</summary>
    ClientSend,

    /// <summary>Client: from the request sent to its answer received (the owner's part, the transfer and the wake-ups).</summary>
    ClientAwaitAnswer,

    /// <summary>Owner session: from the end of its last request's work (the answer sent, then a scan's next chunk read ahead, if any) to the next request's first bytes ready (the client's part).</summary>
    OwnerIdle,

    /// <summary>Owner session: the request read off the socket.</summary>
    OwnerReceive,

    /// <summary>Owner session: the request decoded into the session's <see cref="WriteBatch"/>.</summary>
    OwnerDecode,

    /// <summary>Owner session: the batch applied by the engine (waits for other writers inside it included).</summary>
    OwnerApply,

    /// <summary>Owner session: the answer handed to the socket.</summary>
    OwnerAnswer,

    /// <summary>Owner: a batch of the owner process's own applied by the engine.</summary>
    OwnerOwnWrite,
}
