namespace DataStore.FileSystem;

/// <summary>What a name in a node directory is.</summary>
internal enum NameKind
{
    Other,
    Plain,
    Hashed,
}
