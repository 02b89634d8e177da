using System.Text.Json.Serialization;

namespace DataStore.ChangeFeed;

/// <summary>The manifest's change-feed setting (<c>changeFeed</c>): present when every commit writes a change-log record.</summary>
/// <param name="Retention">How many of the latest commits the log keeps; a subscriber further behind is told to resynchronize.</param>
internal sealed record ChangeFeedSettings(int Retention)
{
    /// <summary>The retention of a store created without one: enough for a burst of mod installs.</summary>
    public const int DefaultRetention = 100_000;

    /// <summary>
    /// The latest sequence of the log when the feed was turned on again after a time off (0: never off). Commits made while it was
    /// off have no records, so a subscriber resuming from this number or an earlier one is told to resynchronize (ADR 0020).
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingDefault)]
    public long ResumedAfter { get; init; }
}
