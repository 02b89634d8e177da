namespace DataStore.Diagnostics;

/// <summary>How an operation ended (the <c>outcome</c> tag of the meter, <c>datastore.outcome</c> on a span).</summary>
internal enum StoreOutcome
{
    /// <summary><c>ok</c>: the operation did what was asked.</summary>
    Ok,

    /// <summary><c>precondition_failed</c>: a batch whose precondition failed wrote nothing.</summary>
    PreconditionFailed,

    /// <summary><c>error</c>: the operation threw.</summary>
    Error,

    /// <summary><c>cancelled</c>: a long operation stopped because its token was cancelled.</summary>
    Cancelled,
}
