using System.Diagnostics;

namespace DataStore.Diagnostics;

/// <summary>
/// Runs a long operation (export, import, migrate, backup, verify, compact, hand-over) inside its
/// <c>datastore.{operation}</c> span, counted and timed on the meter with its outcome.
/// </summary>
/// <remarks>
/// The span carries <c>datastore.backend</c>, <c>datastore.path</c> and <c>datastore.outcome</c>; the body adds its
/// counts through the activity it is given (null when nobody listens). A failure sets the span's status to
/// <see cref="ActivityStatusCode.Error"/> and is rethrown unchanged.
/// </remarks>
internal static class LongOperation
{
    /// <summary>Runs <paramref name="body"/> as <paramref name="operation"/> on the store of <paramref name="backend"/> at <paramref name="path"/>.</summary>
    public static T Run<T>(StoreOperation operation, StoreTelemetry telemetry, StoreBackend backend, string path, Func<Activity?, T> body)
    {
        var started = telemetry.Start();
        using var activity = telemetry.StartActivity(StoreTelemetry.NameOf(operation), backend, path);
        try
        {
            var result = body(activity);
            End(activity, telemetry, operation, backend, started, StoreOutcome.Ok);
            return result;
        }
        catch (Exception e)
        {
            StoreActivities.Fail(activity, e);
            End(activity, telemetry, operation, backend, started, e is OperationCanceledException ? StoreOutcome.Cancelled : StoreOutcome.Error);
            throw;
        }
    }

    /// <summary>The telemetry <paramref name="store"/> counts on (the process-wide one for a store DataStore did not open).</summary>
    public static StoreTelemetry TelemetryOf(IKeyValueStore store) => (store as Backends.IBackendMaintenance)?.Telemetry ?? StoreTelemetry.Shared;

    private static void End(Activity? activity, StoreTelemetry telemetry, StoreOperation operation, StoreBackend backend, long started, StoreOutcome outcome)
    {
        activity?.SetTag("datastore.outcome", StoreTelemetry.NameOf(outcome));
        telemetry.Record(operation, backend, started, outcome);
    }
}
