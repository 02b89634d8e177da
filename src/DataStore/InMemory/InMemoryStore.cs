using System.Buffers;
using System.Collections.Immutable;

namespace DataStore.InMemory;

/// <summary>A thread-safe sorted map in this process's memory, for applications' unit tests.</summary>
/// <remarks>
/// The map is immutable: writers build a new version under one lock and publish it, readers and scans use
/// whichever version was current when they started, so scans are snapshots and batches are atomic.
/// Nothing is persisted and no other process can see the data.
/// </remarks>
internal sealed class InMemoryStore : KeyValueStoreBase
{
    private readonly Lock _writeLock = new();
    private ImmutableSortedSet<InMemoryEntry> _entries = ImmutableSortedSet.Create(InMemoryEntry.ByKey);

    public override string Path => "";

    public override StoreBackend Backend => StoreBackend.InMemory;

    public override StoreCapabilities Capabilities => StoreCapabilities.SnapshotScans;

    public override Durability Durability => Durability.Relaxed;

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var entry = new InMemoryEntry(key.ToArray(), value.ToArray());
        lock (_writeLock)
        {
            _entries = _entries.Remove(entry).Add(entry);
        }
    }

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) =>
        FoundValue.Write(TryFind(key, out var value), value, destination);

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination) =>
        FoundValue.Copy(TryFind(key, out var value), value, destination);

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key) => TryFind(key, out _);

    protected override void DeleteCore(ReadOnlySpan<byte> key)
    {
        var probe = new InMemoryEntry(key.ToArray(), []);
        lock (_writeLock)
        {
            _entries = _entries.Remove(probe);
        }
    }

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        lock (_writeLock)
        {
            var builder = _entries.ToBuilder();
            var removed = RemoveRange(builder, start, end);
            _entries = builder.ToImmutable();
            return removed;
        }
    }

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        var snapshot = _entries;
        return new InMemoryCursor(snapshot, LowerBound(snapshot, start), end.ToArray(), keysOnly);
    }

    protected override int WriteCore(WriteBatch batch)
    {
        lock (_writeLock)
        {
            for (var i = 0; i < batch.PreconditionCount; i++)
            {
                var condition = batch.Precondition(i);
                var found = TryFind(_entries, batch.First(condition), out var value);
                var holds = condition.Kind == Batches.BatchEntryKind.RequireAbsent
                    ? !found
                    : found && value.SequenceEqual(batch.Second(condition));
                if (!holds)
                {
                    return i;
                }
            }

            var builder = _entries.ToBuilder();
            for (var i = 0; i < batch.OperationCount; i++)
            {
                Apply(builder, batch, batch.Operation(i));
            }

            _entries = builder.ToImmutable();
            return -1;
        }
    }

    protected override void CompactCore()
    {
    }

    protected override void Dispose(bool disposing)
    {
        _entries = _entries.Clear();
    }

    private static void Apply(ImmutableSortedSet<InMemoryEntry>.Builder builder, WriteBatch batch, Batches.BatchEntry operation)
    {
        var first = batch.First(operation);
        switch (operation.Kind)
        {
            case Batches.BatchEntryKind.Put:
                var entry = new InMemoryEntry(first.ToArray(), batch.Second(operation).ToArray());
                builder.Remove(entry);
                builder.Add(entry);
                break;
            case Batches.BatchEntryKind.Delete:
                builder.Remove(new InMemoryEntry(first.ToArray(), []));
                break;
            case Batches.BatchEntryKind.DeletePrefix:
                RemoveRange(builder, first, KeyOrder.TryGetPrefixEnd(first, out var end) ? end : default);
                break;
            case Batches.BatchEntryKind.DeleteRange:
                RemoveRange(builder, first, batch.Second(operation));
                break;
        }
    }

    private static long RemoveRange(ImmutableSortedSet<InMemoryEntry>.Builder builder, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var doomed = new List<InMemoryEntry>();
        foreach (var entry in builder)
        {
            if (!start.IsEmpty && entry.Key.AsSpan().SequenceCompareTo(start) < 0)
            {
                continue;
            }

            if (!end.IsEmpty && entry.Key.AsSpan().SequenceCompareTo(end) >= 0)
            {
                break;
            }

            doomed.Add(entry);
        }

        foreach (var entry in doomed)
        {
            builder.Remove(entry);
        }

        return doomed.Count;
    }

    private bool TryFind(ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value) => TryFind(_entries, key, out value);

    private static bool TryFind(ImmutableSortedSet<InMemoryEntry> entries, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var index = LowerBound(entries, key);
        if (index < entries.Count && entries[index].Key.AsSpan().SequenceEqual(key))
        {
            value = entries[index].Value;
            return true;
        }

        value = default;
        return false;
    }

    /// <summary>The index of the first entry whose key is not below <paramref name="key"/>.</summary>
    internal static int LowerBound(ImmutableSortedSet<InMemoryEntry> entries, ReadOnlySpan<byte> key)
    {
        int low = 0, high = entries.Count;
        while (low < high)
        {
            var middle = (low + high) >>> 1;
            if (entries[middle].Key.AsSpan().SequenceCompareTo(key) < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }
}
