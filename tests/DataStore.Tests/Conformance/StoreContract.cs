namespace DataStore.Tests.Conformance;

/// <summary>
/// The base of every conformance rule: one abstract class per contract rule (docs/contract.md) derives from it, and one tiny
/// sealed subclass per backend names the backend. Each test gets a fresh temporary directory.
/// </summary>
public abstract class StoreContract : IDisposable
{
    private readonly List<IKeyValueStore> _opened = [];
    private readonly Dictionary<string, IKeyValueStore> _owners = [];

    /// <summary>The backend under test.</summary>
    protected abstract StoreBackend Backend { get; }

    /// <summary>This test's own directory, deleted afterwards.</summary>
    protected TemporaryDirectory Directory { get; } = new();

    /// <summary>True to run the rules through a client of an owner process (ADR 0015): each store is first opened once as its owner, and the test gets a client.</summary>
    protected virtual bool ThroughOwner => false;

    /// <summary>The store path tests use unless they need several stores.</summary>
    protected string StorePath => Directory.Sub("store");

    /// <summary>Options for the backend under test at <paramref name="path"/> (default <see cref="StorePath"/>).</summary>
    protected DataStoreOptions Options(string? path = null) => new()
    {
        Path = path ?? StorePath,
        Backend = Backend,
        Timeout = TimeSpan.FromSeconds(10),
    };

    /// <summary>Opens the backend under test; the store is disposed with the test.</summary>
    /// <remarks>On a <see cref="StoreCapabilities.ReadOnly"/> backend a write rule cannot run: it is skipped, naming the rule, unless the test only reads (<see cref="ReadsOnly"/>).</remarks>
    protected IKeyValueStore Open(Action<DataStoreOptions>? configure = null, string? path = null, [System.Runtime.CompilerServices.CallerMemberName] string rule = "")
    {
        var options = Options(path);
        configure?.Invoke(options);
        if (ThroughOwner && !_owners.ContainsKey(options.Path))
        {
            var owner = KeyValueStore.Open(options);
            Assert.Equal(StoreRole.Owner, owner.Sharing.Role);
            _owners.Add(options.Path, owner);
        }

        var store = KeyValueStore.Open(options);
        _opened.Add(store);
        Assert.True(!ThroughOwner || store.Sharing.Role == StoreRole.Client, $"{Backend}: the store under test should be a client, but is {store.Sharing.Role}");
        if (!ReadsOnly && store.Capabilities.HasFlag(StoreCapabilities.ReadOnly))
        {
            Assert.Skip($"{Backend} declares ReadOnly, and '{rule}' writes through the store, so it is skipped on it; the read rules run in the Read*Contract classes.");
        }

        return store;
    }

    /// <summary>True for contracts whose tests only read what they seeded; they run on read-only backends too.</summary>
    protected virtual bool ReadsOnly => false;

    /// <summary>Skips the test, printing why, when the backend does not declare <paramref name="needed"/>.</summary>
    protected void RequireCapability(StoreCapabilities needed, string rule)
    {
        var capabilities = CapabilitiesOf(Backend);
        if ((capabilities & needed) != needed)
        {
            Assert.Skip($"{Backend} does not declare {needed & ~capabilities}, so rule '{rule}' is skipped on it.");
        }
    }

    /// <summary>The capabilities the backend declares, read from a throwaway store.</summary>
    protected StoreCapabilities CapabilitiesOf(StoreBackend backend)
    {
        using var probe = KeyValueStore.Open(new DataStoreOptions { Path = Directory.Sub($"probe-{Guid.NewGuid():N}"), Backend = backend });
        return probe.Capabilities;
    }

    public void Dispose()
    {
        foreach (var store in _opened.Concat(_owners.Values))
        {
            store.Dispose();
        }

        Directory.Dispose();
        GC.SuppressFinalize(this);
    }
}
