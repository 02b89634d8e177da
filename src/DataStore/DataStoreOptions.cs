using Microsoft.Extensions.Configuration;

namespace DataStore;

/// <summary>How to open a store; binds from configuration (an appsettings.json section or <c>DATASTORE__</c> environment variables).</summary>
public sealed class DataStoreOptions
{
    /// <summary>The configuration section name the options bind from by default.</summary>
    public const string SectionName = "DataStore";

    /// <summary>The store's directory. Required except for <see cref="StoreBackend.InMemory"/>.</summary>
    public string Path { get; set; } = "";

    /// <summary>The backend; null opens whatever the store's manifest names, and creates a new store as <see cref="StoreBackend.Sqlite"/>.</summary>
    public StoreBackend? Backend { get; set; }

    /// <summary>The durability of this instance's writes; null uses the store's recorded setting (<see cref="DataStore.Durability.Relaxed"/> for a new store).</summary>
    public Durability? Durability { get; set; }

    /// <summary>How long a write waits for another writer (thread or process) before failing with <see cref="StoreTimeoutException"/>.</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How often a <see cref="DataStore.Durability.Relaxed"/> store syncs its writes to disk in the background.</summary>
    public TimeSpan SyncInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Whether opening a directory with no store creates one.</summary>
    public bool CreateIfMissing { get; set; } = true;

    /// <summary>
    /// Whether a new store logs every commit for <see cref="ChangeFeedExtensions.Watch"/> (ADR 0020); recorded in the manifest, so
    /// every process agrees. Null or false: off (a write costs nothing more). True on an existing store without the feed is an error.
    /// </summary>
    public bool? ChangeFeed { get; set; }

    /// <summary>How many of the latest commits a new store's change log keeps; a subscriber further behind is told to resynchronize.</summary>
    public int ChangeFeedRetention { get; set; } = DataStore.ChangeFeed.ChangeFeedSettings.DefaultRetention;

    /// <summary>Reads options from a configuration section, such as <c>configuration.GetSection("DataStore")</c>.</summary>
    /// <remarks><see cref="Timeout"/> and <see cref="SyncInterval"/> take seconds (<c>30</c>) or a duration (<c>00:00:30</c>).</remarks>
    /// <exception cref="InvalidOperationException">The section is the root configuration, holds a key DataStore does not know, or a value cannot be read.</exception>
    public static DataStoreOptions FromConfiguration(IConfiguration section)
    {
        ArgumentNullException.ThrowIfNull(section);
        var options = new DataStoreOptions();
        Configuration.DataStoreOptionsBinder.Bind(section, options);
        return options;
    }

    /// <summary>A copy that can be changed without affecting this instance.</summary>
    public DataStoreOptions Clone() => (DataStoreOptions)MemberwiseClone();

    /// <summary>Throws <see cref="ArgumentException"/> naming the first invalid setting.</summary>
    public void Validate()
    {
        if (FindProblems().FirstOrDefault() is var (setting, message) && setting is not null)
        {
            throw new ArgumentException(message, setting);
        }
    }

    /// <summary>Every invalid setting, as (setting name, sentence naming it); empty when the options are valid.</summary>
    internal IEnumerable<(string Setting, string Message)> FindProblems()
    {
        if (Backend != StoreBackend.InMemory && string.IsNullOrWhiteSpace(Path))
        {
            yield return (nameof(Path), "DataStoreOptions.Path must name the store's directory.");
        }

        if (Path.Contains(System.IO.Path.PathSeparator, StringComparison.Ordinal) || Path.IndexOfAny(['\0', '\n', '\r']) >= 0)
        {
            yield return (nameof(Path),
                $"DataStoreOptions.Path must name one directory; '{Path}' looks like a list of paths (it holds '{System.IO.Path.PathSeparator}') or holds a control character. " +
                "Was it bound from the root configuration's PATH?");
        }

        if (Backend is { } backend && !Enum.IsDefined(backend))
        {
            yield return (nameof(Backend), $"DataStoreOptions.Backend {(int)backend} is not a known backend.");
        }

        if (Durability is { } durability && !Enum.IsDefined(durability))
        {
            yield return (nameof(Durability), $"DataStoreOptions.Durability {(int)durability} is not a known level.");
        }

        if (Timeout < TimeSpan.Zero || Timeout > TimeSpan.FromDays(1))
        {
            yield return (nameof(Timeout), $"DataStoreOptions.Timeout must be between 0 and 1 day; it is {Timeout}.");
        }

        if (ChangeFeedRetention < 1)
        {
            yield return (nameof(ChangeFeedRetention), $"DataStoreOptions.ChangeFeedRetention must keep at least 1 commit; it is {ChangeFeedRetention}.");
        }

        if (ChangeFeed == true && Backend is { } feedBackend && !DataStore.ChangeFeed.ChangeFeedSupport.Has(feedBackend))
        {
            yield return (nameof(ChangeFeed), $"DataStoreOptions.ChangeFeed is on, but: {DataStore.ChangeFeed.ChangeFeedSupport.WhyNot(feedBackend)}.");
        }

        if (SyncInterval <= TimeSpan.Zero || SyncInterval > TimeSpan.FromHours(1))
        {
            yield return (nameof(SyncInterval), $"DataStoreOptions.SyncInterval must be above 0 and at most 1 hour; it is {SyncInterval}.");
        }
    }
}
