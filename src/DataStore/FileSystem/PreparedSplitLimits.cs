using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>When a FileSystem leaf gets its split prepared beside the writers (<see cref="SplitPreparation"/>).</summary>
internal static class PreparedSplitLimits
{
    /// <summary>True where a split can be prepared (Linux, direct writes on); <c>DATASTORE_FILESYSTEM_PREPARED_SPLIT=0</c> turns it off (to compare in one build).</summary>
    public static readonly bool Enabled = PosixLinks.Available && Environment.GetEnvironmentVariable("DATASTORE_FILESYSTEM_PREPARED_SPLIT") != "0";

    /// <summary>Stores with a smaller directory limit (tests) split the old way, unless <see cref="ForceForTests"/> was set on the opening thread.</summary>
    public const int MinimumEntries = 1024;

    /// <summary>Test hook: stores opened on this thread prepare their splits whatever their limit.</summary>
    [ThreadStatic]
    internal static bool ForceForTests;

    /// <summary>Whether a store with this directory limit prepares its splits.</summary>
    public static bool For(int maxEntries) => Enabled && (maxEntries >= MinimumEntries || ForceForTests);

    /// <summary>A leaf whose estimated count reaches this gets a split prepared.</summary>
    public static int StartAt(int maxEntries) => maxEntries * 3 / 4;

    /// <summary>Entries kept free in a leaf being prepared, for its child directories: past the rest it splits the old way.</summary>
    public static int Reserve(int maxEntries) => Math.Min(256, maxEntries / 8);
}
