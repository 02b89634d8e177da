namespace DataStore;

/// <summary>How <see cref="StoreMaintenance.ImportAsync"/> treats a dump that turns out to be damaged.</summary>
public sealed class ImportOptions
{
    /// <summary>Keep the pairs imported before a damaged part of the dump instead of removing the new store (default false).</summary>
    public bool KeepPartial { get; set; }
}
