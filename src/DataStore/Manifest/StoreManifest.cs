using System.Text.Json;
using System.Text.Json.Serialization;
using DataStore.ChangeFeed;

namespace DataStore.Manifest;

/// <summary>The small file that makes a store directory self-describing: backend, format version and store-wide settings.</summary>
/// <remarks>
/// <see cref="Checksums"/>: true when each pair is stored with its checksum and checked on reads (ADR 0014). It is absent,
/// so false, in the manifests of stores written before format version 2: those read without the check.
/// <see cref="ChangeFeed"/>: present when every commit writes a change-log record (ADR 0020); absent (off) otherwise.
/// </remarks>
internal sealed record StoreManifest(StoreBackend Backend, int FormatVersion, Durability Durability, bool Checksums = false,
    ChangeFeedSettings? ChangeFeed = null)
{
    public const string FileName = "datastore.json";

    /// <summary>The CRC-32C of the rest of the manifest (<see cref="ManifestFile"/>); absent in manifests written before it.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public uint? ManifestCrc { get; init; }

    /// <summary>
    /// The format version of a store whose commits are logged for the change feed (ADR 0020), which an older DataStore must
    /// refuse rather than write to without logging; 2, pairs carry checksums; 1 still opens. Sqlite stores are version 4.
    /// </summary>
    public const int CurrentFormatVersion = 3;

    /// <summary>The format version of a new store with the change feed off, so DataStore versions before the feed open it too.</summary>
    public const int WithoutChangeFeedFormatVersion = 2;

    /// <summary>
    /// The format version of every new Sqlite store: its pages carry checksums (ADR 0023), which a DataStore before them would
    /// not keep up to date when it writes, so it must refuse the store. The newest version this build opens.
    /// </summary>
    public const int SqlitePageChecksumsFormatVersion = 4;

    /// <summary>True when <paramref name="directory"/> holds a manifest, that is, a store.</summary>
    public static bool Exists(string directory) => File.Exists(System.IO.Path.Combine(directory, FileName));

    /// <summary>
    /// Reads the manifest in <paramref name="directory"/>, or creates it when there is none and creation is allowed.
    /// Two processes creating the same store at once agree on one manifest: the first rename wins.
    /// </summary>
    public static StoreManifest OpenOrCreate(string directory, DataStoreOptions options)
    {
        var path = System.IO.Path.Combine(directory, FileName);
        var requested = options.Backend ?? StoreBackend.Sqlite;
        if (!File.Exists(path))
        {
            if (!options.CreateIfMissing)
            {
                throw new DataStoreException(StoreFailure.Io, directory, requested,
                    $"there is no store here (no {FileName}) and DataStoreOptions.CreateIfMissing is false.");
            }

            var feed = options.ChangeFeed == true ? new ChangeFeedSettings(options.ChangeFeedRetention) : null;
            var version = requested == StoreBackend.Sqlite ? SqlitePageChecksumsFormatVersion : feed is null ? WithoutChangeFeedFormatVersion : CurrentFormatVersion;
            TryCreate(path, new StoreManifest(requested, version,
                options.Durability ?? Durability.Relaxed, Checksums: true, feed));
        }

        var manifest = Read(path, directory, options.Backend);
        manifest.ThrowIfIncompatible(directory, options.Backend);
        return manifest;
    }

    /// <summary>
    /// The format version this store has once its change feed is off: a store whose pages carry checksums (Sqlite, version
    /// <see cref="SqlitePageChecksumsFormatVersion"/>) keeps its version, since the feed is not what sets it; otherwise 2 with
    /// pair checksums, 1 without, so DataStore versions before the feed open it again.
    /// </summary>
    public int FormatVersionWithoutChangeFeed =>
        FormatVersion >= SqlitePageChecksumsFormatVersion ? FormatVersion : Checksums ? WithoutChangeFeedFormatVersion : 1;

    /// <summary>Reads the manifest of an existing store, checking that this build reads its format.</summary>
    /// <exception cref="DataStoreException">There is no store, or its manifest is damaged or newer.</exception>
    public static StoreManifest ReadExisting(string directory) => OpenOrCreate(directory, new DataStoreOptions { Path = directory, CreateIfMissing = false });

    /// <summary>Replaces the manifest of the store in <paramref name="directory"/>, power-safe: a crash leaves the old one or this one.</summary>
    /// <remarks>Only with the store to itself (<see cref="StoreOpenLock"/> held exclusively): every process reads it once, when it opens.</remarks>
    public void Replace(string directory) =>
        Platform.SyncedFile.Replace(System.IO.Path.Combine(directory, FileName), ManifestFile.Serialize(this));

    private void ThrowIfIncompatible(string directory, StoreBackend? requested)
    {
        ThrowIfNewer(FormatVersion, directory, Backend);

        if (requested is { } backend && backend != Backend)
        {
            throw new StoreFormatException(StoreFailure.WrongBackend, directory, backend,
                $"the directory holds a {Backend} store, not a {backend} store. Open it with Backend = {Backend} (or leave Backend unset), or migrate it.");
        }
    }

    private static void TryCreate(string path, StoreManifest manifest)
    {
        var temporary = $"{path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
        try
        {
            // The contents are synced before the rename: after a power loss the name must not survive without them.
            Platform.SyncedFile.WriteData(temporary, ManifestFile.Serialize(manifest));
            File.Move(temporary, path, overwrite: false);
        }
        catch (IOException) when (File.Exists(path))
        {
            // Another process created the store first; its manifest stands.
        }
        finally
        {
            File.Delete(temporary);
        }

        // Whichever process's rename won, the manifest's directory entry must survive a power loss.
        Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(path)!);
    }

    private static StoreManifest Read(string path, string directory, StoreBackend? requested)
    {
        try
        {
            return ManifestFile.Parse(File.ReadAllBytes(path));
        }
        catch (JsonException e)
        {
            // Named after the backend whose files are there when none was asked for, not after the default one.
            var found = EngineFiles.Recognize(directory);
            var backend = requested ?? (found.Count == 1 ? found[0].Backend : StoreBackend.Sqlite);

            // A newer DataStore may write members this one does not know: its format version says so before they are refused.
            ThrowIfNewer(ManifestFile.PeekFormatVersion(path), directory, backend);
            throw new StoreFormatException(StoreFailure.Corrupt, directory, backend,
                $"{path} is damaged ({e.Message}); the store cannot be identified.", e);
        }
    }

    private static void ThrowIfNewer(int formatVersion, string directory, StoreBackend backend)
    {
        if (formatVersion > SqlitePageChecksumsFormatVersion)
        {
            throw new StoreFormatException(StoreFailure.NewerFormat, directory, backend,
                $"the store has format version {formatVersion}, newer than version {SqlitePageChecksumsFormatVersion} that this DataStore reads. Update DataStore.");
        }
    }
}
