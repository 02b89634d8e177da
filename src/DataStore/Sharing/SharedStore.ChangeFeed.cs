using DataStore.ChangeFeed;
using Microsoft.Extensions.Logging;

namespace DataStore.Sharing;

// The change feed through the owner (ADR 0020): the owner's engine writes the log in each commit's own transaction and
// the change signal after it; a client reads the log through the owner, so a subscriber anywhere reads one sequence,
// which the next owner continues (the log is in the store) after a hand-over.
internal sealed partial class SharedStore : IChangeFeedStore, IRestartMarkedStore
{
    private volatile bool _changeFeedOn;

    public bool ChangeFeedOn => _changeFeedOn;

    /// <summary>True with the feed on, owner or client: a client closing last takes back the mark of an owner that was killed.</summary>
    public bool MarksRestart => _changeFeedOn;

    /// <summary>A client's close leaves no commit of its own; an owner's is as clean as its engine's.</summary>
    public bool ClosedCleanly => _role is not OwnerRole { Engine: IRestartMarkedStore { ClosedCleanly: false } };

    /// <summary>
    /// Marks the feed on. The engine's own log is started by the engine's opener, before the owner serves any client, in
    /// this process and in whichever process takes the store over (<see cref="KeyValueStore"/>).
    /// </summary>
    public void StartChangeFeed(ChangeFeedSettings settings, ILogger logger)
    {
        if (_role is OwnerRole { Engine: not IChangeFeedStore { ChangeFeedOn: true } })
        {
            throw new DataStoreException(StoreFailure.Unavailable, _directory, _backend, "the owner's engine was opened without its change log.");
        }

        _changeFeedOn = true;
    }

    public ChangeLogPage ReadChanges(long after, int max)
    {
        if (!TryEnterCall())
        {
            ThrowIfDisposed();
        }

        try
        {
            while (true)
            {
                using var call = Begin(MessageKind.ReadChanges);
                if (call.Engine is { } engine)
                {
                    return EngineFeed(engine).ReadChanges(after, max);
                }

                call.Request.Int64(after).Int32(max);
                if (Send(call, write: false))
                {
                    return ReadPage(new MessageReader(call.Answer));
                }
            }
        }
        finally
        {
            ExitCall();
        }
    }

    // Subscribers of this store wait for the signal; once it is disposed they must learn at once (the owner's engine does
    // the same as it closes). Subscribers of other processes read nothing new and wait again.
    private void WakeSubscribers()
    {
        if (_changeFeedOn)
        {
            using var signal = new ChangeSignal(_directory, _logger);
            signal.Notify();
        }
    }

    /// <summary>The owner's answer to <see cref="MessageKind.ReadChanges"/>: the latest sequence, the count, then each record's sequence and bytes.</summary>
    internal static void WritePage(MessageWriter answer, ChangeLogPage page)
    {
        answer.Start(MessageKind.Ok).Int64(page.Latest).Int32(page.Records.Count);
        foreach (var record in page.Records)
        {
            answer.Int64(record.Sequence).Bytes(record.Record);
        }
    }

    /// <summary>The engine's change log, as the owner serves it.</summary>
    internal static IChangeFeedStore EngineFeed(IKeyValueStore engine) => engine as IChangeFeedStore is { ChangeFeedOn: true } feed
        ? feed
        : throw new InvalidOperationException($"The {engine.Backend} store at '{engine.Path}' was created with the change feed off, so its commits are not logged.");

    private static ChangeLogPage ReadPage(MessageReader reader)
    {
        var latest = reader.Int64();
        var count = reader.Int32();
        if (count < 0)
        {
            throw new BrokerProtocolException($"a change-log page of {count} records");
        }

        // A damaged count reserves at most 1,024 entries up front; reading past the message then fails as a protocol error.
        var records = new List<ChangeLogEntry>(Math.Min(count, 1024));
        for (var i = 0; i < count; i++)
        {
            records.Add(new ChangeLogEntry(reader.Int64(), reader.Bytes().ToArray()));
        }

        return new ChangeLogPage(records, latest);
    }
}
