namespace DataStore.Tests.Conformance;

/// <summary>
/// The open lock (ADR 0020): whatever its type, the store every backend's open returns holds the lock, shared, until it is
/// disposed, so a maintenance step that needs the store to itself (turning the change feed on or off) is refused while the
/// store is open, even in the same process, and runs once it is disposed.
/// </summary>
public abstract class OpenLockContract : StoreContract
{
    private const string Rule = "13: a step that needs the store to itself is refused while the store is open";
    private static readonly TimeSpan ShortWait = TimeSpan.FromMilliseconds(200);

    [Fact]
    public void Changing_the_change_feed_setting_is_refused_while_the_store_is_open_and_runs_once_it_is_disposed()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        if (Backend == StoreBackend.Packed)
        {
            Assert.Skip($"a Packed store takes no open lock (ADR 0020): it never changes and has no setting to switch; rule '{Rule}' is skipped on it.");
        }

        var store = Open();
        store.Put([1], [1]);

        var refused = Assert.Throws<DataStoreException>(() => StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: false, wait: ShortWait));
        Assert.Equal(StoreFailure.Unavailable, refused.Cause);
        Assert.Contains("other processes have it open", refused.Message, StringComparison.Ordinal);

        store.Dispose();
        var unchanged = StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: false, wait: ShortWait);
        Assert.False(unchanged.Changed || unchanged.Enabled, $"changed {unchanged.Changed}, enabled {unchanged.Enabled}");
    }
}
