using System.Diagnostics;

namespace DataStore.Diagnostics;

/// <summary>The <c>DataStore</c> <see cref="ActivitySource"/>: a span for opening a store, each batch write and each long operation.</summary>
internal static class StoreActivities
{
    public const string SourceName = "DataStore";

    public static readonly ActivitySource Source = new(SourceName, typeof(StoreActivities).Assembly.GetName().Version?.ToString());

    /// <summary>Starts <c>datastore.{name}</c> tagged with the store's backend and path, or returns null when nobody listens.</summary>
    public static Activity? Start(string name, StoreBackend? backend, string path)
    {
        if (!Source.HasListeners())
        {
            return null;
        }

        var activity = Source.StartActivity($"datastore.{name}");
        activity?.SetTag("datastore.backend", backend?.ToString());
        activity?.SetTag("datastore.path", path);
        return activity;
    }

    /// <summary>Tags <paramref name="activity"/> with the pairs and bytes a long operation went through.</summary>
    public static void Counted(Activity? activity, long pairs, long bytes)
    {
        activity?.SetTag("datastore.pairs", pairs);
        activity?.SetTag("datastore.bytes", bytes);
    }

    /// <summary>Marks <paramref name="activity"/> failed with <paramref name="error"/>; returns false so it can sit in an exception filter.</summary>
    public static bool Fail(Activity? activity, Exception error)
    {
        activity?.SetStatus(ActivityStatusCode.Error, error.Message);
        activity?.AddTag("error.type", error.GetType().FullName);
        return false;
    }
}
