namespace DataStore.FileSystem;

/// <summary>What reading one key file found.</summary>
internal enum ReadStatus
{
    /// <summary>No file (or no directory on its path).</summary>
    Missing,

    /// <summary>A file that is not a whole key file: Get reports it as damage naming the key (ADR 0014).</summary>
    Damaged,

    /// <summary>A whole key file.</summary>
    Found,
}
