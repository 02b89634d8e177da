namespace DataStore.Sharing;

/// <summary>
/// Refuses, at once, a <see cref="IKeyValueStore.Compact"/> that would make another process's writes wait for the
/// whole rewrite: the backend declared <see cref="IBackendSharing.CompactBlocksWriters"/> and another process uses
/// the store (issue 14 item 6: a tool command never makes the app's writes fail, and never waits holding what they need).
/// </summary>
/// <remarks>A client that connects while the compaction runs waits for it, each of its calls up to its own timeout.</remarks>
internal sealed class CompactGate(bool compactBlocksWriters, PeerProcesses peers)
{
    /// <summary>Throws when the compaction asked by process <paramref name="requester"/> must be refused.</summary>
    /// <exception cref="DataStoreException">Another process uses the store (cause <see cref="StoreFailure.Unavailable"/>).</exception>
    public void ThrowIfShared(IKeyValueStore engine, int requester)
    {
        if (!compactBlocksWriters)
        {
            return;
        }

        var others = peers.OtherThan(requester);
        if (others.Count > 0)
        {
            var known = others.Where(id => id > 0).ToList();
            throw new DataStoreException(StoreFailure.Unavailable, engine.Path, engine.Backend,
                $"compact needs the store to itself: {others.Count} other process(es) have it open" +
                (known.Count > 0 ? $" ({string.Join(", ", known.Select(id => $"process {id}"))})" : string.Empty) +
                $". {engine.Backend}'s compaction rewrites every record under the writer lock, so their writes would wait for the whole rewrite and time out; " +
                "run compact when the other programs have closed the store.");
        }
    }
}
