using System.Diagnostics;
using DataStore.Diagnostics;

namespace DataStore.Transfer;

/// <summary>Creates a store from a dump: built beside the destination, renamed into place once the trailer's checksum matched.</summary>
internal static class DumpImport
{
    public static Task<StoreDigest> RunAsync(Stream source, DataStoreOptions destination, ImportOptions options, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        Task.Run(() => LongOperation.Run(StoreOperation.Import, StoreTelemetry.Shared, destination.Backend ?? StoreBackend.Sqlite, destination.Path,
            activity => Run(source, destination, options, progress, activity, cancellationToken)), cancellationToken);

    private static StoreDigest Run(Stream source, DataStoreOptions destination, ImportOptions options, IProgress<StoreProgress>? progress, Activity? activity, CancellationToken cancellationToken)
    {
        if (!source.CanRead)
        {
            throw new ArgumentException("The source stream cannot be read.", nameof(source));
        }

        var throttle = new ProgressThrottle(progress);
        long? totalBytes = source.CanSeek ? source.Length - source.Position : null;
        using var staged = StagedStore.Create(destination, Durability.Relaxed, "import");
        using var digest = new PairDigest();
        var reader = new DumpReader(source, staged.FinalPath, staged.Backend, digest);
        var sink = new BatchSink(staged.Store);
        activity?.SetTag("datastore.path", staged.FinalPath);
        try
        {
            var totalPairs = reader.ReadHeader();
            while (reader.TryRead(out var key, out var value))
            {
                cancellationToken.ThrowIfCancellationRequested();
                sink.Add(key, value);
                throttle.Report(StorePhase.Importing, digest.Pairs, reader.Offset, totalPairs, totalBytes);
            }

            var result = reader.Finish();
            sink.Flush();
            staged.Commit();
            StoreActivities.Counted(activity, result.Pairs, result.Bytes);
            throttle.ReportNow(StorePhase.Importing, digest.Pairs, reader.Offset, totalPairs, totalBytes);
            return result;
        }
        catch (DumpFormatException e)
        {
            throw e.WithNote(KeepOrAbandon(staged, sink, options));
        }
        catch (OperationCanceledException e) when (options.KeepPartial)
        {
            throw new OperationCanceledException($"The import was cancelled. {KeepOrAbandon(staged, sink, options)}", e, cancellationToken);
        }
    }

    /// <summary>Keeps the pairs read so far (all from CRC-checked frames) when asked to, else removes the new store; says which.</summary>
    private static string KeepOrAbandon(StagedStore staged, BatchSink sink, ImportOptions options)
    {
        if (!options.KeepPartial)
        {
            staged.Abandon();
            return "Nothing was imported: the new store was removed.";
        }

        sink.Flush();
        staged.Commit();
        return $"ImportOptions.KeepPartial is set, so the {sink.Committed:N0} pairs read before the problem were kept in '{staged.FinalPath}'.";
    }
}
