using DataStore.Manifest;
using DataStore.Platform;

namespace DataStore.Packed;

/// <summary>The store directory a build writes into: checked before, given its manifest after.</summary>
internal static class PackedDirectory
{
    /// <summary>Creates <paramref name="directory"/> if needed; refuses one that holds another backend's store.</summary>
    /// <exception cref="StoreFormatException">The directory holds another backend's store (with or without its manifest).</exception>
    public static void Prepare(string directory)
    {
        if (StoreManifest.Exists(directory))
        {
            // Throws when the manifest names another backend, or a newer format.
            _ = StoreManifest.OpenOrCreate(directory, new DataStoreOptions { Path = directory, Backend = StoreBackend.Packed, CreateIfMissing = false });
            return;
        }

        var others = EngineFiles.Recognize(directory).Where(f => f.Backend != StoreBackend.Packed).ToList();
        if (others.Count > 0)
        {
            throw new StoreFormatException(StoreFailure.WrongBackend, directory, StoreBackend.Packed,
                $"the directory holds {others[0].Backend} files ({string.Join(", ", others[0].Found)}); a Packed store is built into an empty directory or over a Packed store.");
        }

        PackedErrors.Guard(directory, () => Directory.CreateDirectory(directory));
    }

    /// <summary>Writes the manifest of a Packed store when the directory has none yet (power-safe).</summary>
    public static void WriteManifest(string directory)
    {
        if (StoreManifest.Exists(directory))
        {
            return;
        }

        var manifest = new StoreManifest(StoreBackend.Packed, StoreManifest.CurrentFormatVersion, Durability.Durable, Checksums: true);
        SyncedFile.Replace(System.IO.Path.Combine(directory, StoreManifest.FileName), ManifestFile.Serialize(manifest));
    }
}
