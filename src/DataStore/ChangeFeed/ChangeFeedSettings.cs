namespace DataStore.ChangeFeed;

/// <summary>The manifest's change-feed setting (<c>changeFeed</c>): present when every commit writes a change-log record.</summary>
/// <param name="Retention">How many of the latest commits the log keeps; a subscriber further behind is told to resynchronize.</param>
internal sealed record ChangeFeedSettings(int Retention)
{
    /// <summary>The retention of a store created without one: enough for a burst of mod installs.</summary>
    public const int DefaultRetention = 100_000;
}
