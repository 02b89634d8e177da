using DataStore.Packed;
using DataStore.Transfer;

namespace DataStore;

/// <summary>Builds Packed stores: immutable, read-only stores in one memory-mapped file (docs/packed-format.md, ADR 0019).</summary>
/// <remarks>
/// A build reads its pairs in any order, in memory bounded by <see cref="DefaultMemoryBudget"/> (unsorted input is
/// sorted by spilling sorted runs to temporary files beside the store and merging them), writes the file under a
/// staging name, syncs it, renames it into place and syncs the directory: readers see the old file or the whole new
/// one. A key that appears twice is an error (<see cref="ArgumentException"/>) and nothing is written. Open the
/// result with <see cref="KeyValueStore.Open(string)"/> (or <c>Backend = Packed</c>).
/// </remarks>
public static class PackedStore
{
    /// <summary>Pair bytes a build holds in memory before it spills a sorted run: 64 MiB.</summary>
    public const long DefaultMemoryBudget = 64L << 20;

    // RS0026 guards adding optional parameters to a shipped overload; these overloads are new and differ by their first parameter's type.
#pragma warning disable RS0026
    /// <summary>Builds (or rebuilds) the Packed store in directory <paramref name="path"/> from <paramref name="pairs"/>, in any order; returns the pair count.</summary>
    /// <exception cref="ArgumentException">A key is empty or over 1 MiB, a value over 256 MiB, or a key appears twice.</exception>
    /// <exception cref="DataStoreException">The directory holds another backend's store, or writing failed.</exception>
    public static long Build(IEnumerable<KeyValuePair<byte[], byte[]>> pairs, string path, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(pairs);
        using var enumerator = pairs.GetEnumerator();
        return Build(PairSources.Of(enumerator), path, pairs.TryGetNonEnumeratedCount(out var count) ? count : null, progress, DefaultMemoryBudget, null, cancellationToken);
    }

    /// <summary>Builds (or rebuilds) the Packed store in directory <paramref name="path"/> from every pair of <paramref name="source"/>; returns the pair count.</summary>
    /// <remarks>The source is read in one consistent pass, as <c>export</c> reads it; do not write to it from this thread meanwhile.</remarks>
    /// <exception cref="DataStoreException">The directory holds another backend's store, or reading or writing failed.</exception>
    public static long Build(IKeyValueStore source, string path, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        using var cursor = WholeStore.Read(source);
        return Build(PairSources.Of(cursor), path, null, progress, DefaultMemoryBudget, null, cancellationToken);
    }

#pragma warning restore RS0026

    /// <summary>Builds (or rebuilds) the Packed store in directory <paramref name="path"/> from a dump (docs/dump-format.md); returns the pair count.</summary>
    /// <exception cref="DumpFormatException">The dump is damaged or truncated; nothing was written.</exception>
    public static long BuildFromDump(Stream dump, string path, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(dump);
        var directory = System.IO.Path.GetFullPath(path);
        using var digest = new PairDigest();
        var reader = new DumpReader(dump, directory, StoreBackend.Packed, digest);
        var total = reader.ReadHeader();
        return Build(PairSources.Of(reader), path, total, progress, DefaultMemoryBudget, () => reader.Finish(), cancellationToken);
    }

    /// <summary>Reads what the Packed store in directory <paramref name="path"/> holds from its file's header and footer (both checked).</summary>
    /// <exception cref="StoreFormatException">The file is missing, damaged, truncated or of another format version.</exception>
    public static PackedFileInfo Describe(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var directory = System.IO.Path.GetFullPath(path);
        var filePath = System.IO.Path.Combine(directory, PackedFormat.FileName);
        if (!File.Exists(filePath))
        {
            throw PackedDamage.Error(directory, filePath, "it is missing");
        }

        using var file = PackedFile.Open(filePath, directory);
        var footer = file.Footer;
        return new PackedFileInfo((int)PackedFormat.Version, footer.PairCount, footer.BlockCount, footer.KeyBytes, footer.ValueBytes,
            footer.HashOffset - footer.IndexOffset, footer.PageTableOffset - footer.HashOffset, file.Length);
    }

    /// <summary>The one build path: <paramref name="beforeCommit"/> runs once every pair is written, before the rename (a dump checks its trailer there).</summary>
    internal static long Build(IPairSource source, string path, long? totalPairs, IProgress<StoreProgress>? progress, long memoryBudget, Action? beforeCommit, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var directory = System.IO.Path.GetFullPath(path);
        PackedDirectory.Prepare(directory);
        var file = System.IO.Path.Combine(directory, PackedFormat.FileName);
        var staging = PackedFileWrite.StagingName(file);
        try
        {
            var pairs = PackedErrors.Guard(directory, () => new PackedBuild(directory, memoryBudget, new ProgressThrottle(progress), cancellationToken).Run(source, staging, totalPairs));
            beforeCommit?.Invoke();
            PackedErrors.Guard(directory, () =>
            {
                PackedFileWrite.Commit(staging, file);
                PackedDirectory.WriteManifest(directory);
                return true;
            });
            return pairs;
        }
        finally
        {
            File.Delete(staging);
        }
    }
}
