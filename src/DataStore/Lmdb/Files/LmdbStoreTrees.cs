namespace DataStore.Lmdb.Files;

/// <summary>
/// Walks the trees of a data file that hold the store: the main tree, which holds the pairs of a store without the change
/// feed, or, in a store with it, names exactly the trees <c>feed</c> and <c>pairs</c> (<see cref="LmdbEnvironment.FeedName"/>),
/// which are walked after it. Anything else the main tree names is damage.
/// </summary>
internal static class LmdbStoreTrees
{
    /// <summary>
    /// Walks the store's trees with <paramref name="reader"/> (each up to its page budget); <paramref name="feedRecord"/>, when
    /// given, sees every change-log record (key, record).
    /// </summary>
    public static void Walk(LmdbDataFile file, LmdbTreeReader reader, Action<ReadOnlySpan<byte>, ReadOnlySpan<byte>>? feedRecord, CancellationToken cancellationToken)
    {
        var named = new List<(string Name, LmdbTree Tree)>();
        reader.Walk(file.Meta.Main, "main", static (_, _) => { }, cancellationToken, named: named);
        if (named.Count == 0)
        {
            return;
        }

        if (named.Count != 2 || file.Meta.Main.Entries != 2 || named[0].Name != LmdbEnvironment.FeedName || named[1].Name != LmdbEnvironment.PairsName)
        {
            throw file.Damage($"its main tree holds {file.Meta.Main.Entries} records naming the trees {string.Join(", ", named.Select(n => $"'{n.Name}'"))}, " +
                $"but a store with the change feed names exactly '{LmdbEnvironment.FeedName}' and '{LmdbEnvironment.PairsName}', and one without it none");
        }

        reader.Walk(named[1].Tree, LmdbEnvironment.PairsName, static (_, _) => { }, cancellationToken);
        reader.Walk(named[0].Tree, "change-log", feedRecord ?? (static (_, _) => { }), cancellationToken);
    }
}
