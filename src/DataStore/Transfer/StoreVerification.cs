using System.Diagnostics;
using DataStore.Diagnostics;

namespace DataStore.Transfer;

/// <summary>The engine's integrity check plus a full read: every pair scanned in order, and every value read again through <c>Get</c>.</summary>
/// <remarks>
/// Every pair, not a sample, is read twice (scan and <c>Get</c>), because the two take different paths through
/// some engines (LMDB's and LiteDB's long keys, the FileSystem backend's key files); it roughly doubles the cost of the
/// read. Engine exceptions become problems in the report, never a failure of the verification itself.
/// </remarks>
internal static class StoreVerification
{
    private const int MaxSkipped = 100;

    public static Task<VerifyReport> RunAsync(IKeyValueStore store, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        Task.Run(() => LongOperation.Run(StoreOperation.Verify, LongOperation.TelemetryOf(store), store.Backend, store.Path,
            activity => Run(store, progress, activity, cancellationToken)), cancellationToken);

    private static VerifyReport Run(IKeyValueStore store, IProgress<StoreProgress>? progress, Activity? activity, CancellationToken cancellationToken)
    {
        var problems = new ProblemList();
        var throttle = new ProgressThrottle(progress);
        if (store.Backend != StoreBackend.InMemory && Manifest.EngineFiles.MissingData(store.Path, store.Backend) is { } missing)
        {
            problems.Add($"the store's data is gone: {missing}.");
        }

        if (store is Backends.IBackendMaintenance engine)
        {
            Guard(problems, "the engine's integrity check failed", () =>
            {
                foreach (var problem in engine.CheckIntegrity(cancellationToken))
                {
                    problems.Add(problem);
                }
            });
        }

        long? total = null;
        if (throttle.Enabled)
        {
            Guard(problems, "counting the pairs failed", () => total = PairCounter.Count(store, throttle, cancellationToken));
        }

        using var digest = new PairDigest();
        Guard(problems, "the full read stopped", () => ReadAll(store, digest, problems, throttle, total, cancellationToken), () => $" after {digest.Pairs:N0} pairs");
        throttle.ReportNow(StorePhase.Verifying, digest.Pairs, digest.Bytes, total);
        StoreActivities.Counted(activity, digest.Pairs, digest.Bytes);
        activity?.SetTag("datastore.problems", problems.Count);
        return new VerifyReport(digest.ToDigest(), problems.ToList());
    }

    // A damaged pair (a Corrupt error from the cursor) is reported and skipped: the read goes on after its key, found
    // with a keys-only scan (which reads no value), so verify lists every damaged pair, up to MaxSkipped.
    private static void ReadAll(IKeyValueStore store, PairDigest digest, ProblemList problems, ProgressThrottle throttle, long? total, CancellationToken cancellationToken)
    {
        var previous = new byte[256];
        var previousLength = 0;
        byte[]? skipped = null;
        var skips = 0;
        var buffer = new byte[4096];
        var cursor = WholeStore.Read(store);
        try
        {
            while (true)
            {
                bool moved;
                try
                {
                    moved = cursor.MoveNext();
                }
                catch (DataStoreException e) when (e.Cause == StoreFailure.Corrupt && skips < MaxSkipped)
                {
                    var damaged = KeyAfter(store, skipped ?? previous.AsSpan(0, previousLength), skipped is not null || digest.Pairs > 0);
                    if (damaged is null)
                    {
                        throw;
                    }

                    problems.Add($"a damaged pair after {digest.Pairs:N0} good ones (the read goes on after key {KeyText.Describe(damaged)}): {e.Message}");
                    (skipped, skips) = (damaged, skips + 1);
                    cursor.Dispose();
                    cursor = store.ScanRange([.. damaged, 0], []);
                    continue;
                }

                if (!moved)
                {
                    break;
                }

                cancellationToken.ThrowIfCancellationRequested();
                skipped = null;
                var key = cursor.Key;
                var value = cursor.Value;
                if (digest.Pairs > 0 && key.SequenceCompareTo(previous.AsSpan(0, previousLength)) <= 0)
                {
                    problems.Add($"the scan returned key {KeyText.Describe(key)} after {KeyText.Describe(previous.AsSpan(0, previousLength))}, out of ascending order.");
                }

                if (previous.Length < key.Length)
                {
                    previous = new byte[key.Length];
                }

                key.CopyTo(previous);
                previousLength = key.Length;
                CheckGet(store, key, value, ref buffer, problems);
                digest.Append(key, value);
                throttle.Report(StorePhase.Verifying, digest.Pairs, digest.Bytes, total);
            }
        }
        finally
        {
            cursor.Dispose();
        }
    }

    // The first key after `after` (the first key of all when there is none), or null; a keys-only scan reads no value.
    private static byte[]? KeyAfter(IKeyValueStore store, ReadOnlySpan<byte> after, bool hasAfter)
    {
        try
        {
            using var keys = hasAfter ? store.ScanRange([.. after, 0], [], keysOnly: true) : store.ScanPrefix([], keysOnly: true);
            return keys.MoveNext() ? keys.Key.ToArray() : null;
        }
        catch (DataStoreException)
        {
            return null; // the keys are damaged too: the read stops with the first error
        }
    }

    private static void CheckGet(IKeyValueStore store, ReadOnlySpan<byte> key, ReadOnlySpan<byte> scanned, ref byte[] buffer, ProblemList problems)
    {
        try
        {
            var length = store.Get(key, buffer);
            if (length > buffer.Length)
            {
                buffer = new byte[length];
                length = store.Get(key, buffer);
            }

            if (length < 0)
            {
                problems.Add($"key {KeyText.Describe(key)} is listed by the scan, but Get does not find it.");
            }
            else if (length > buffer.Length || !buffer.AsSpan(0, length).SequenceEqual(scanned))
            {
                problems.Add($"key {KeyText.Describe(key)}: Get returns a different value ({length:N0} bytes) than the scan ({scanned.Length:N0} bytes).");
            }
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            problems.Add($"key {KeyText.Describe(key)}: Get failed: {e.Message}");
        }
    }

    private static void Guard(ProblemList problems, string what, Action action, Func<string>? where = null)
    {
        try
        {
            action();
        }
        catch (Exception e) when (e is not OperationCanceledException and not ObjectDisposedException)
        {
            problems.Add($"{what}{where?.Invoke()}: {e.GetType().Name}: {e.Message}");
        }
    }
}
