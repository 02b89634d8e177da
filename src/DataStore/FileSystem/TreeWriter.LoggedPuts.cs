using System.Globalization;
using System.Text;
using DataStore.ChangeFeed;
using DataStore.Platform;

namespace DataStore.FileSystem;

// A single Put with the change feed on (ADR 0020, *The FileSystem log*), without the batch journal: the key file is
// written and flushed in tmp/ before the lock, as without the feed. Under the lock it is renamed to tmp/feed-<sequence>.put,
// the commit's intent (Durable: tmp/ synced, so the name survives a power loss), then the record is appended (Durable:
// synced), then the file is renamed into place. Whoever next holds the lock completes a pending file: its record unless the
// log ends with it, then its rename; so a commit and its record never disagree. Relaxed leaves tmp/ and the record to the
// background sync, and a restart after it restarts the log (ChangeLogFiles.Unsynced).
internal sealed partial class TreeWriter
{
    private const string PendingPrefix = "feed-";
    private const string PendingSuffix = ".put";

    /// <summary>
    /// True for a Relaxed store: a logged Put or Delete appends its record and changes its names without a sync, leaving
    /// them to the background sync (ADR 0020, *Relaxed*); the log's marker is on disk before the first such record.
    /// </summary>
    public bool DeferLogSyncs { get; set; }

    /// <summary>Test hook: called on this thread after each step of a logged Put (1 renamed to its pending name, 2 tmp/ synced or, Relaxed, the marker made sure of, 3 record appended, 4 published).</summary>
    [ThreadStatic]
    internal static Action<int>? LoggedPutStepForTests;

    /// <summary>
    /// Commits a Put whose key file <see cref="WriteTemporary"/> wrote as the next commit of the change log; returns the
    /// directory whose entry changed. A failure after the first step leaves the pending file for recovery, which completes it.
    /// </summary>
    public string PublishLogged(ReadOnlySpan<byte> key, string temporary)
    {
        state.BeginChange(); // the next lock holder completes what a dead writer leaves; readers wait for the end
        var sequence = Log.Latest() + 1;
        var pending = Path.Combine(_temporary, PendingPrefix + sequence.ToString("D20", CultureInfo.InvariantCulture) + PendingSuffix);
        if (!PosixWrites.Enabled || !PosixWrites.RenameAt(PosixWrites.CurrentDirectory, Encoding.UTF8.GetBytes(temporary + "\0"), PosixWrites.CurrentDirectory, Encoding.UTF8.GetBytes(pending + "\0")))
        {
            File.Move(temporary, pending, overwrite: true);
        }

        LoggedPutStepForTests?.Invoke(1);
        if (DeferLogSyncs)
        {
            Log.MarkUnsynced();
        }
        else
        {
            DirectorySync.Sync(_temporary);
        }

        LoggedPutStepForTests?.Invoke(2);
        Log.Append(sequence, _record.Clear().Add(KeyChangeKind.Put, key).Bytes, sync: !DeferLogSyncs);
        LoggedPutStepForTests?.Invoke(3);
        var directory = Publish(key, pending);
        LoggedPutStepForTests?.Invoke(4);
        state.EndChange();
        return directory;
    }

    /// <summary>
    /// Completes the logged Puts a dead writer left pending, in commit order: record (once; none when <paramref name="restartLog"/>:
    /// the log is restarted after them), then rename.
    /// </summary>
    private void RecoverLoggedPuts(bool restartLog)
    {
        if (!Directory.Exists(_temporary))
        {
            return;
        }

        var pending = new SortedDictionary<long, string>();
        foreach (var name in TreeWalker.Entries(_temporary, directories: false))
        {
            if (name.StartsWith(PendingPrefix, StringComparison.Ordinal) && name.EndsWith(PendingSuffix, StringComparison.Ordinal) &&
                long.TryParse(name.AsSpan(PendingPrefix.Length, name.Length - PendingPrefix.Length - PendingSuffix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out var sequence))
            {
                pending[sequence] = Path.Combine(_temporary, name);
            }
        }

        foreach (var (sequence, path) in pending)
        {
            if (KeyFile.Read(Encoding.UTF8.GetBytes(path + "\0"), withValue: true, out var read, out _) != ReadStatus.Found)
            {
                throw new StoreFormatException(StoreFailure.Corrupt, root, StoreBackend.FileSystem,
                    $"the key file '{path}' of the unfinished Put of commit {sequence} is damaged (it was synced before its commit began).");
            }

            var key = read.ToArray();
            if (!restartLog)
            {
                Log.Recover(sequence, _record.Clear().Add(KeyChangeKind.Put, key).Bytes, loggedIfPast: true);
            }

            Publish(key, path);
        }
    }
}
