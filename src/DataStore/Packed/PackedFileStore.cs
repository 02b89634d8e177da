using System.Buffers;

namespace DataStore.Packed;

/// <summary>A read-only store over one mapped packed file; every write method throws <see cref="ReadOnlyStoreException"/>.</summary>
/// <remarks>
/// Any number of processes may open the same file at once: nothing is locked and nothing is written. Scans are
/// snapshots by nature. A store rebuilt in place is a new file renamed over the old one; an open store keeps
/// reading the file it opened until it is reopened.
/// </remarks>
internal sealed class PackedFileStore : KeyValueStoreBase
{
    private readonly PackedFile _file;

    private PackedFileStore(string directory, PackedFile file)
    {
        Path = directory;
        _file = file;
    }

    public override string Path { get; }

    public override StoreBackend Backend => StoreBackend.Packed;

    public override StoreCapabilities Capabilities =>
        StoreCapabilities.Persistent | StoreCapabilities.SharedAcrossProcesses | StoreCapabilities.SnapshotScans
        | StoreCapabilities.SelfDescribing | StoreCapabilities.ReadOnly;

    public override Durability Durability => Durability.Durable;

    /// <summary>The mapped file, for <c>info</c> and verification.</summary>
    internal PackedFile File => _file;

    /// <summary>Opens the packed file of the store in <paramref name="directory"/>.</summary>
    public static PackedFileStore Open(string directory) =>
        new(directory, PackedErrors.Guard(directory, () => PackedFile.Open(System.IO.Path.Combine(directory, PackedFormat.FileName), directory)));

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) =>
        FoundValue.Write(TryFind(key, out var value), value, destination);

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination) =>
        FoundValue.Copy(TryFind(key, out var value), value, destination);

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key) => TryFind(key, out _);

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly) =>
        new PackedCursor(this, _file, start, end, keysOnly);

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => throw ReadOnly("Put");

    protected override void DeleteCore(ReadOnlySpan<byte> key) => throw ReadOnly("Delete");

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) => throw ReadOnly("DeleteRange");

    protected override int WriteCore(WriteBatch batch) => throw ReadOnly("Write");

    /// <summary>Nothing to give back: the file holds no free space.</summary>
    protected override void CompactCore()
    {
    }

    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) =>
        PackedVerification.CheckBlocks(_file, cancellationToken);

    protected override void Dispose(bool disposing) => _file.Dispose();

    private bool TryFind(ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value) => PackedLookup.TryFind(_file, key, out value);

    private ReadOnlyStoreException ReadOnly(string operation) => new(Path, Backend,
        $"{operation} is not supported: a Packed store is read-only. Build a new one with PackedStore.Build (or `datastore pack`) to change its contents.");
}
