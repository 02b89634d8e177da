namespace DataStore;

/// <summary>What a <see cref="StoreChange"/> from <see cref="ChangeFeedExtensions.Watch"/> reports.</summary>
public enum StoreChangeKind
{
    /// <summary>One commit (a Put, Delete, DeletePrefix, DeleteRange or a whole batch) that touched the watched prefix.</summary>
    Commit,

    /// <summary>
    /// Commits were missed (the subscriber fell behind the retention, resumed from a number no longer kept, or from one the
    /// store never reached, as after a restore): re-read the watched prefix; later events follow <see cref="StoreChange.Sequence"/>.
    /// </summary>
    Resynchronize,
}
