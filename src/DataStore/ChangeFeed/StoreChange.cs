namespace DataStore;

/// <summary>One event of a change feed: a commit with the changes it made under the watched prefix, or a request to resynchronize.</summary>
/// <param name="Kind">A commit, or <see cref="StoreChangeKind.Resynchronize"/>.</param>
/// <param name="Sequence">
/// The commit's number: it rises by one with every commit to the store (so a watcher of a prefix sees gaps), never goes backwards
/// across restarts and compaction, and is what a subscriber saves to resume. For <see cref="StoreChangeKind.Resynchronize"/>, the
/// number to continue from once the prefix has been re-read.
/// </param>
/// <param name="Changes">The commit's changes under the watched prefix, in the order the commit made them; empty for a resynchronize.</param>
public sealed record StoreChange(StoreChangeKind Kind, long Sequence, IReadOnlyList<KeyChange> Changes);
