namespace DataStore;

/// <summary>What a commit did to one key or range (<see cref="KeyChange"/>).</summary>
public enum KeyChangeKind
{
    /// <summary>The key was inserted or overwritten.</summary>
    Put,

    /// <summary>The key was deleted (it may have been absent).</summary>
    Delete,

    /// <summary>Every key in [<see cref="KeyChange.Key"/>, <see cref="KeyChange.End"/>) was deleted; an empty end is open. A DeletePrefix arrives as this range.</summary>
    DeleteRange,
}
