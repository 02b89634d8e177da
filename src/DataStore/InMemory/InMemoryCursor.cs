using System.Collections.Immutable;

namespace DataStore.InMemory;

/// <summary>A cursor over one published version of an in-memory store: a snapshot by construction.</summary>
internal sealed class InMemoryCursor(ImmutableSortedSet<InMemoryEntry> snapshot, int firstIndex, byte[] end, bool keysOnly) : IKeyValueCursor
{
    private int _index = firstIndex - 1;
    private InMemoryEntry? _current;

    public ReadOnlySpan<byte> Key => Current.Key;

    public ReadOnlySpan<byte> Value => keysOnly ? default : Current.Value;

    private InMemoryEntry Current => _current ?? throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public bool MoveNext()
    {
        _current = null;
        if (++_index >= snapshot.Count)
        {
            return false;
        }

        var entry = snapshot[_index];
        if (end.Length > 0 && entry.Key.AsSpan().SequenceCompareTo(end) >= 0)
        {
            _index = snapshot.Count;
            return false;
        }

        _current = entry;
        return true;
    }

    public void Dispose() => _current = null;
}
