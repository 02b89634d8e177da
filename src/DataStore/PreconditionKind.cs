namespace DataStore;

/// <summary>What a batch precondition requires of its key.</summary>
public enum PreconditionKind
{
    /// <summary>The key must be absent.</summary>
    KeyAbsent,

    /// <summary>The key must hold exactly the given bytes.</summary>
    KeyEquals,
}
