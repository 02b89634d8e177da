using DataStore.ChangeFeed;

namespace DataStore;

/// <summary>The change feed: watch a prefix and receive every commit of every process, in order (ADR 0020).</summary>
public static class ChangeFeedExtensions
{
    /// <summary>
    /// Yields one <see cref="StoreChange"/> per commit (a batch is one event) that touched a key under <paramref name="prefix"/>,
    /// made by any thread or process, in commit order, until <paramref name="cancellationToken"/> is cancelled.
    /// </summary>
    /// <param name="store">A store created with <see cref="DataStoreOptions.ChangeFeed"/> on.</param>
    /// <param name="prefix">The keys to watch; empty watches everything.</param>
    /// <param name="afterSequence">
    /// Resume after this saved <see cref="StoreChange.Sequence"/>; null starts with the next commit. When the commits after it are
    /// no longer retained (or the store never reached it, or it is from before the feed was last turned on again), the first event
    /// is <see cref="StoreChangeKind.Resynchronize"/>.
    /// </param>
    /// <param name="cancellationToken">Ends the enumeration (with <see cref="OperationCanceledException"/>).</param>
    /// <remarks>
    /// An idle subscription waits for the operating system's notification of a commit; it uses no CPU until one comes (a safety
    /// read every few seconds covers a lost notification). Disposing the store ends it with <see cref="ObjectDisposedException"/>.
    /// </remarks>
    /// <exception cref="NotSupportedException">The backend has no change feed yet.</exception>
    /// <exception cref="InvalidOperationException">The store has the change feed off.</exception>
    public static IAsyncEnumerable<StoreChange> Watch(this IKeyValueStore store, ReadOnlySpan<byte> prefix, long? afterSequence = null, CancellationToken cancellationToken = default)
    {
        var feed = FeedOf(store);
        ArgumentOutOfRangeException.ThrowIfNegative(afterSequence ?? 0, nameof(afterSequence));
        var end = KeyOrder.TryGetPrefixEnd(prefix, out var prefixEnd) ? prefixEnd : [];
        var resumedAfter = afterSequence is null ? 0 : Manifest.StoreManifest.ReadExisting(store.Path).ChangeFeed?.ResumedAfter ?? 0;
        return ChangeFeedReader.Read(feed, store.Path, store.Backend, prefix.ToArray(), end, afterSequence, resumedAfter, cancellationToken);
    }

    /// <summary>The sequence number of the store's latest commit (0 before the first): save it with what you read, and resume from it.</summary>
    /// <exception cref="NotSupportedException">The backend has no change feed yet.</exception>
    /// <exception cref="InvalidOperationException">The store has the change feed off.</exception>
    public static long ChangeSequence(this IKeyValueStore store) => FeedOf(store).ReadChanges(long.MaxValue, 0).Latest;

    private static IChangeFeedStore FeedOf(IKeyValueStore store)
    {
        ArgumentNullException.ThrowIfNull(store);
        if (store is not IChangeFeedStore feed)
        {
            throw new NotSupportedException(ChangeFeedSupport.WhyNot(store.Backend) + ".");
        }

        return feed.ChangeFeedOn
            ? feed
            : throw new InvalidOperationException(
                $"The {store.Backend} store at '{store.Path}' has the change feed off, so its commits are not logged. " +
                "Turn it on while no process has the store open (datastore config --change-feed on, or StoreConfiguration.ConfigureChangeFeed), or create the store with DataStoreOptions.ChangeFeed = true.");
    }
}
