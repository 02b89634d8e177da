namespace DataStore.Transfer;

/// <summary>Counts a store's pairs with a keys-only whole-store read, so later progress reports can carry a total.</summary>
internal static class PairCounter
{
    /// <summary>The number of pairs in <paramref name="store"/> (phase <see cref="StorePhase.Counting"/>).</summary>
    public static long Count(IKeyValueStore store, ProgressThrottle progress, CancellationToken cancellationToken)
    {
        long pairs = 0;
        using (var cursor = WholeStore.Read(store, keysOnly: true))
        {
            while (cursor.MoveNext())
            {
                cancellationToken.ThrowIfCancellationRequested();
                pairs++;
                progress.Report(StorePhase.Counting, pairs, 0, null);
            }
        }

        progress.ReportNow(StorePhase.Counting, pairs, 0, pairs);
        return pairs;
    }
}
