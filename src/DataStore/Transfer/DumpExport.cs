using System.Diagnostics;
using DataStore.Diagnostics;

namespace DataStore.Transfer;

/// <summary>Writes a store to a dump: one whole-store read (see <see cref="WholeStore"/>) streamed through a one-frame buffer.</summary>
internal static class DumpExport
{
    public static Task<StoreDigest> RunAsync(IKeyValueStore store, Stream destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        Task.Run(() => LongOperation.Run(StoreOperation.Export, LongOperation.TelemetryOf(store), store.Backend, store.Path,
            activity => Run(store, destination, progress, activity, cancellationToken)), cancellationToken);

    private static StoreDigest Run(IKeyValueStore store, Stream destination, IProgress<StoreProgress>? progress, Activity? activity, CancellationToken cancellationToken)
    {
        if (!destination.CanWrite)
        {
            throw new ArgumentException("The destination stream cannot be written to.", nameof(destination));
        }

        var throttle = new ProgressThrottle(progress);
        long? total = throttle.Enabled ? PairCounter.Count(store, throttle, cancellationToken) : null;
        using var digest = new PairDigest();
        var writer = new DumpWriter(destination, digest);
        writer.WriteHeader(total is { } count ? (ulong)count : DumpFormat.UnknownPairs);
        using (var cursor = WholeStore.Read(store))
        {
            while (cursor.MoveNext())
            {
                cancellationToken.ThrowIfCancellationRequested();
                writer.Write(cursor.Key, cursor.Value);
                throttle.Report(StorePhase.Exporting, digest.Pairs, digest.Bytes, total);
            }
        }

        writer.Finish();
        StoreActivities.Counted(activity, digest.Pairs, digest.Bytes);
        throttle.ReportNow(StorePhase.Exporting, digest.Pairs, digest.Bytes, total);
        return digest.ToDigest();
    }
}
