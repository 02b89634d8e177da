using System.Diagnostics;

namespace DataStore.Tests.Diagnostics;

/// <summary>Records the <c>DataStore</c> spans that stop while it listens, of stores under one directory (tests run in parallel).</summary>
internal sealed class SpanRecorder : IDisposable
{
    /// <summary>Every span name the README documents.</summary>
    public static readonly string[] Documented =
    [
        "datastore.open", "datastore.write", "datastore.compact", "datastore.export", "datastore.import",
        "datastore.migrate", "datastore.backup", "datastore.verify", "datastore.handover",
    ];

    private readonly List<Activity> _stopped = [];
    private readonly ActivityListener _listener;

    public SpanRecorder(string directory)
    {
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "DataStore",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                if (activity.GetTagItem("datastore.path") is string path && path.StartsWith(directory, StringComparison.Ordinal))
                {
                    lock (_stopped)
                    {
                        _stopped.Add(activity);
                    }
                }
            },
        };
        ActivitySource.AddActivityListener(_listener);
    }

    public IReadOnlyList<Activity> Stopped
    {
        get
        {
            lock (_stopped)
            {
                return [.. _stopped];
            }
        }
    }

    /// <summary>The one span named <paramref name="name"/>, after checking that every span seen has a documented name.</summary>
    public Activity Single(string name)
    {
        var stopped = Stopped;
        Assert.All(stopped, span => Assert.Contains(span.OperationName, Documented));
        return Assert.Single(stopped, span => span.OperationName == name);
    }

    /// <summary>Asserts that <paramref name="span"/> ended well and names the store's backend and path.</summary>
    public static void AssertOk(Activity span, StoreBackend backend, string path)
    {
        Assert.Equal(ActivityStatusCode.Unset, span.Status);
        Assert.Equal("ok", span.GetTagItem("datastore.outcome"));
        Assert.Equal(backend.ToString(), span.GetTagItem("datastore.backend"));
        Assert.Equal(Path.GetFullPath(path), Path.GetFullPath((string)span.GetTagItem("datastore.path")!));
    }

    public void Dispose() => _listener.Dispose();
}
