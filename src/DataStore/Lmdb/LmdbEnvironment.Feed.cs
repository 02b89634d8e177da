using System.Diagnostics;

namespace DataStore.Lmdb;

/// <summary>
/// The layout of a store created with the change feed on (ADR 0020): the pairs in the named database <c>pairs</c> and the
/// change log in the named database <c>feed</c>, so the main database holds only those two names and no user key can
/// meet them. A store without the feed keeps its pairs in the main database, as before. The layout is read from the data
/// file at every open; a store with the feed gets it at its first open (<see cref="StartFeedLayout"/>).
/// </summary>
internal sealed partial class LmdbEnvironment
{
    /// <summary>The named database that holds the pairs of a store with the change feed.</summary>
    public const string PairsName = "pairs";

    /// <summary>The named database that holds the change log of a store with the change feed.</summary>
    public const string FeedName = "feed";

    // The two names above; LMDB counts named databases beyond its own two.
    private const uint NamedDatabases = 2;

    /// <summary>The change log's database, or 0 when the store has the layout without the feed.</summary>
    public uint FeedDbi { get; private set; }

    /// <summary>
    /// True once a store of this process started the feed: commits are logged only then, not whenever the layout exists, since a
    /// store whose feed was turned off keeps the layout (ADR 0020, <i>Turning the feed on or off</i>) and must write no records.
    /// </summary>
    public bool FeedLogging { get; private set; }

    /// <summary>
    /// Gives the store the change feed's layout unless it has it: creates the two named databases in a write transaction
    /// behind the writer locks, when the main database is empty (a new store); another process may have done it first.
    /// </summary>
    /// <exception cref="DataStoreException">The store already holds pairs in the layout without the feed, or the locks timed out.</exception>
    public void StartFeedLayout(LmdbErrors errors)
    {
        var started = Stopwatch.GetTimestamp();
        if (!Monitor.TryEnter(_writeLock, Left(errors, started)))
        {
            throw errors.TimedOut();
        }

        try
        {
            ThrowIfClosed(errors);
            if (FeedDbi != 0)
            {
                FeedLogging = true;
                return;
            }

            if (!TakeWriters(errors, Left(errors, started)))
            {
                throw errors.TimedOut();
            }

            try
            {
                CreateFeedLayoutLocked(errors);
            }
            finally
            {
                _writers.Release();
            }
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }
    }

    private void CreateFeedLayoutLocked(LmdbErrors errors)
    {
        var txn = BeginWriteLocked(errors);
        uint pairs, feed;
        try
        {
            if (!TryOpenFeedLayout(txn, errors, 0, out pairs, out feed))
            {
                errors.Check(LmdbNative.Stat(txn, LmdbNative.MainDbi, out var main), "reading the database statistics");
                if (main.Entries != 0)
                {
                    throw new DataStoreException(StoreFailure.Unavailable, Directory, StoreBackend.Lmdb,
                        $"the manifest turns the change feed on, but the data file {_dataFile} holds {main.Entries} pairs in the layout of a store without it. " +
                        "Restore the manifest from a backup, or export the store and import it into one created with the change feed.");
                }

                _ = TryOpenFeedLayout(txn, errors, LmdbNative.Create, out pairs, out feed);
            }
        }
        catch
        {
            LmdbNative.TxnAbort(txn);
            throw;
        }

        errors.Check(LmdbNative.TxnCommit(txn), "creating the change feed's databases");
        Dbi = pairs;
        FeedDbi = feed;
        FeedLogging = true;
    }

    // Inside a transaction: true with both handles when the store has the feed's layout; false when it has the layout
    // without the feed (no database named "pairs", or a user's key of that name). With Create, makes the layout.
    private static unsafe bool TryOpenFeedLayout(nint txn, LmdbErrors errors, uint flags, out uint pairs, out uint feed)
    {
        feed = 0;
        var rc = OpenNamed(txn, PairsName, flags, out pairs);
        if (rc is LmdbNative.NotFound or LmdbNative.Incompatible)
        {
            return false;
        }

        errors.Check(rc, "opening the pairs' database");
        rc = OpenNamed(txn, FeedName, flags, out feed);
        if (rc != LmdbNative.Success)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, errors.Directory, StoreBackend.Lmdb,
                $"the LMDB data file {System.IO.Path.Combine(errors.Directory, DataFile)} is damaged: it holds the change feed's database of pairs but not its change log ({LmdbNative.Describe(rc)}).");
        }

        return true;
    }

    private static unsafe int OpenNamed(nint txn, string name, uint flags, out uint dbi)
    {
        Span<byte> bytes = stackalloc byte[name.Length + 1];
        bytes.Clear();
        System.Text.Encoding.ASCII.GetBytes(name, bytes);
        fixed (byte* n = bytes)
        {
            return LmdbNative.DbiOpen(txn, n, flags, out dbi);
        }
    }
}
