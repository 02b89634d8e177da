using System.Diagnostics;
using DataStore.Diagnostics;

namespace DataStore.Transfer;

/// <summary>Copies a store to another backend and checks the copy by reading it back.</summary>
internal static class StoreMigration
{
    public static Task<StoreDigest> RunAsync(IKeyValueStore source, DataStoreOptions destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        Task.Run(() => LongOperation.Run(StoreOperation.Migrate, LongOperation.TelemetryOf(source), source.Backend, source.Path,
            activity => Run(source, destination, progress, activity, cancellationToken)), cancellationToken);

    private static StoreDigest Run(IKeyValueStore source, DataStoreOptions destination, IProgress<StoreProgress>? progress, Activity? activity, CancellationToken cancellationToken)
    {
        ThrowIfInside(source, destination);
        var throttle = new ProgressThrottle(progress);
        long? total = throttle.Enabled ? PairCounter.Count(source, throttle, cancellationToken) : null;
        using var staged = StagedStore.Create(destination, source.Durability, "migrate");
        using var copied = new PairDigest();
        var sink = new BatchSink(staged.Store);
        activity?.SetTag("datastore.destination.path", staged.FinalPath);
        activity?.SetTag("datastore.destination.backend", staged.Backend.ToString());
        using (var cursor = WholeStore.Read(source))
        {
            while (cursor.MoveNext())
            {
                cancellationToken.ThrowIfCancellationRequested();
                copied.Append(cursor.Key, cursor.Value);
                sink.Add(cursor.Key, cursor.Value);
                throttle.Report(StorePhase.Copying, copied.Pairs, copied.Bytes, total);
            }
        }

        sink.Flush();
        throttle.ReportNow(StorePhase.Copying, copied.Pairs, copied.Bytes, copied.Pairs);
        var expected = copied.ToDigest();

        var copy = staged.Reopen();
        using var readBack = new PairDigest();
        using (var cursor = WholeStore.Read(copy))
        {
            while (cursor.MoveNext())
            {
                cancellationToken.ThrowIfCancellationRequested();
                readBack.Append(cursor.Key, cursor.Value);
                throttle.Report(StorePhase.Verifying, readBack.Pairs, readBack.Bytes, expected.Pairs, expected.Bytes);
            }
        }

        var actual = readBack.ToDigest();
        if (actual != expected)
        {
            staged.Abandon();
            throw new DataStoreException(StoreFailure.Corrupt, staged.FinalPath, staged.Backend,
                $"the copy read back differs from what was copied ({actual.Pairs:N0} pairs, {actual.Bytes:N0} bytes, SHA-256 {actual.Checksum}; " +
                $"copied {expected.Pairs:N0} pairs, {expected.Bytes:N0} bytes, SHA-256 {expected.Checksum}). The copy was removed; the source is unchanged.");
        }

        throttle.ReportNow(StorePhase.Verifying, actual.Pairs, actual.Bytes, expected.Pairs, expected.Bytes);
        staged.Commit();
        StoreActivities.Counted(activity, expected.Pairs, expected.Bytes);
        return expected;
    }

    /// <summary>Refuses a destination inside the source's directory, where the source's engine would find foreign files.</summary>
    private static void ThrowIfInside(IKeyValueStore source, DataStoreOptions destination)
    {
        if (string.IsNullOrEmpty(source.Path) || string.IsNullOrWhiteSpace(destination.Path))
        {
            return;
        }

        var sourcePath = Path.TrimEndingDirectorySeparator(Path.GetFullPath(source.Path)) + Path.DirectorySeparatorChar;
        var destinationPath = Path.TrimEndingDirectorySeparator(Path.GetFullPath(destination.Path)) + Path.DirectorySeparatorChar;
        if (destinationPath.StartsWith(sourcePath, OperatingSystem.IsLinux() ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase))
        {
            throw new ArgumentException(destinationPath.Length == sourcePath.Length
                ? $"The destination '{destination.Path}' is the source store itself; migrate to a new directory."
                : $"The destination '{destination.Path}' is inside the source store's directory '{source.Path}'; migrate to a directory outside it.", nameof(destination));
        }
    }
}
