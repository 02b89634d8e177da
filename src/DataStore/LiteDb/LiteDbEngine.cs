using DataStore.Batches;
using DataStore.Sqlite;
using LiteDB;
using LiteDB.Engine;

namespace DataStore.LiteDb;

/// <summary>
/// One open LiteDB engine over the store's data and log files, with what a commit needs afterwards: the wait for
/// LiteDB's log writer and the log's group-commit sync. Not thread-safe for writes: the store calls the writing
/// members under its write lock.
/// </summary>
internal sealed class LiteDbEngine : IDisposable
{
    private const string CompactFile = "compact.litedb";
    private const string CompactLogFile = "compact-log.litedb";
    private const int CopyBatchBytes = 8 << 20;
    private const int CopyBatchDocuments = 10_000;

    private readonly LiteDbFile _log;
    private readonly LiteDbFile _data;
    private readonly LiteEngine _engine;
    private readonly LiteDbWriterQueue _queue;
    private readonly WalFileSync _sync;

    private LiteDbEngine(LiteDbFile log, LiteDbFile data, LiteEngine engine, LiteDbWriterQueue queue, WalFileSync sync, LiteDbTable table)
    {
        _log = log;
        _data = data;
        _engine = engine;
        _queue = queue;
        _sync = sync;
        Table = table;
    }

    public LiteEngine Engine => _engine;

    public LiteDbTable Table { get; }

    /// <summary>Opens (or creates) the store's LiteDB files in <paramref name="directory"/>.</summary>
    public static LiteDbEngine Open(string directory, LiteDbKeys keys) =>
        Open(System.IO.Path.Combine(directory, LiteDbStore.DataFile), System.IO.Path.Combine(directory, LiteDbStore.LogFile), keys);

    /// <summary>Waits for LiteDB's log writer, so the commit just made survives the process being killed; returns its sync ticket.</summary>
    public long Committed()
    {
        _queue.Wait();
        return _sync.Committed();
    }

    public void WaitUntilSynced(long ticket, string directory, StoreBackend backend) => _sync.WaitUntilSynced(ticket, directory, backend);

    public void SyncIfDirty() => _sync.SyncIfDirty();

    /// <summary>Checks the batch's preconditions and applies it in the current transaction; returns -1 or the first failed precondition.</summary>
    public int Write(WriteBatch batch)
    {
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            var condition = batch.Precondition(i);
            if (!Table.Holds(batch.First(condition), batch.Second(condition), condition.Kind == BatchEntryKind.RequireAbsent))
            {
                return i;
            }
        }

        // Puts and deletes between range deletes form runs, applied in key order (LiteDbBatchRun); a range delete
        // applies after the run before it and before the run after it, as the batch orders them.
        var run = new LiteDbBatchRun(Table, batch);
        for (var i = 0; i < batch.OperationCount; i++)
        {
            var operation = batch.Operation(i);
            var first = batch.First(operation);
            switch (operation.Kind)
            {
                case BatchEntryKind.Put or BatchEntryKind.Delete:
                    run.Add(i);
                    break;
                case BatchEntryKind.DeletePrefix:
                    run.Apply();
                    Table.DeleteRange(first, KeyOrder.TryGetPrefixEnd(first, out var end) ? end : default);
                    break;
                case BatchEntryKind.DeleteRange:
                    run.Apply();
                    Table.DeleteRange(first, batch.Second(operation));
                    break;
            }
        }

        run.Apply();
        return -1;
    }

    /// <summary>
    /// Copies every document into a fresh file, closes this engine, moves the copy over the data file and opens it:
    /// LiteDB's own rebuild needs a file name, and this engine runs on streams. Call under the write lock with no
    /// scan open; this instance is disposed afterwards.
    /// </summary>
    public LiteDbEngine Compact(string directory, LiteDbKeys keys)
    {
        var target = System.IO.Path.Combine(directory, CompactFile);
        var targetLog = System.IO.Path.Combine(directory, CompactLogFile);
        File.Delete(target);
        File.Delete(targetLog);
        using (var copy = Open(target, targetLog, keys))
        {
            foreach (var collection in new[] { LiteDbTable.Pairs, LiteDbTable.Chunks, ChangeFeed.LiteDb.LiteDbChangeLog.Collection })
            {
                CopyCollection(collection, copy);
            }
        }

        Dispose();
        File.Move(target, System.IO.Path.Combine(directory, LiteDbStore.DataFile), overwrite: true);
        File.Delete(targetLog);
        Platform.DirectorySync.Sync(directory);
        return Open(directory, keys);
    }

    public void Dispose()
    {
        try
        {
            if (_queue.Failed)
            {
                // LiteDB's close would wait forever for its stopped log writer: the engine is left as a crash leaves it
                // (its log holds every confirmed transaction, replayed by the next open) and its finalizer is not run.
                GC.SuppressFinalize(_engine);
                return;
            }

            _engine.Dispose(); // waits for the log writer, checkpoints into the data file (synced) and empties the log
            _sync.SyncIfDirty();
        }
        finally
        {
            _sync.Dispose();
            _data.Dispose();
            _log.Dispose();
        }
    }

    private static LiteDbEngine Open(string dataPath, string logPath, LiteDbKeys keys)
    {
        var log = LiteDbFile.OpenLog(logPath);
        LiteDbFile? data = null;
        LiteEngine? engine = null;
        LiteDbWriterQueue? queue = null;
        WalFileSync? sync = null;
        try
        {
            data = LiteDbFile.OpenData(dataPath, log);
            engine = new LiteEngine(new EngineSettings { DataStream = data, LogStream = log });
            queue = LiteDbWriterQueue.Of(engine);
            sync = new WalFileSync(logPath);
            var table = new LiteDbTable(engine, keys);
            table.Initialize();
            queue.Wait();
            sync.SyncIfDirty();
            data.Flush();
            Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(dataPath)!);
            return new LiteDbEngine(log, data, engine, queue, sync, table);
        }
        catch (Exception e)
        {
            var failure = Platform.LibraryThreads.AsStartFailure(e);
            if (queue is { Failed: true })
            {
                GC.SuppressFinalize(engine!); // as in Dispose: LiteDB's close would wait forever for its writer
            }
            else
            {
                engine?.Dispose();
            }

            sync?.Dispose();
            data?.Dispose();
            log.Dispose();
            if (failure is not null)
            {
                throw failure;
            }

            throw;
        }
    }

    /// <summary>
    /// Writes every committed page into the data file (LiteDB's checkpoint, which waits for open read transactions)
    /// and copies that file into <paramref name="directory"/>: a whole LiteDB store, log included. Call under the write
    /// lock, so no write lands meanwhile. <paramref name="copied"/> receives the running count of bytes copied.
    /// </summary>
    public void CopyInto(string directory, Action<long> copied, CancellationToken cancellationToken)
    {
        _engine.Checkpoint();
        _data.CopyTo(System.IO.Path.Combine(directory, LiteDbStore.DataFile), copied, cancellationToken);
    }

    private void CopyCollection(string collection, LiteDbEngine copy)
    {
        var batch = new List<BsonDocument>();
        long bytes = 0;
        using var reader = _engine.Query(collection, new Query());
        while (reader.Read())
        {
            var doc = reader.Current.AsDocument;
            batch.Add(doc);
            bytes += doc.Values.Sum(value => value.IsBinary ? value.AsBinary.Length : 16);
            if (bytes >= CopyBatchBytes || batch.Count >= CopyBatchDocuments)
            {
                copy._engine.Insert(collection, batch, BsonAutoId.ObjectId);
                batch.Clear();
                bytes = 0;
            }
        }

        if (batch.Count > 0)
        {
            copy._engine.Insert(collection, batch, BsonAutoId.ObjectId);
        }
    }
}
