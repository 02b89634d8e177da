namespace DataStore.Packed;

/// <summary>The one way a damaged packed file is reported: a <see cref="StoreFormatException"/> naming the file.</summary>
internal static class PackedDamage
{
    public static StoreFormatException Error(string storePath, string filePath, string what) =>
        new(StoreFailure.Corrupt, storePath, StoreBackend.Packed,
            $"the packed file '{filePath}' is damaged: {what}. Nothing was read from it; build the store again (PackedStore.Build or datastore pack) or restore it from a backup.");
}
