namespace DataStore.LiteDb;

/// <summary>One batch of pairs read from LiteDB, handed out one at a time by a cursor (<see cref="LiteDbCursor"/>, <see cref="LiteDbWholeRead"/>).</summary>
internal sealed class LiteDbPairBatch
{
    private List<KeyValuePair<byte[], byte[]>> _pairs = [];
    private int _index = -1;

    /// <summary>The current pair's key.</summary>
    public ReadOnlySpan<byte> Key => Current.Key;

    /// <summary>The current pair's value.</summary>
    public ReadOnlySpan<byte> Value => Current.Value;

    private KeyValuePair<byte[], byte[]> Current => _index >= 0 && _index < _pairs.Count
        ? _pairs[_index]
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    /// <summary>Moves to the batch's next pair; false once none is left.</summary>
    public bool MoveNext()
    {
        if (_index < _pairs.Count)
        {
            _index++;
        }

        return _index < _pairs.Count;
    }

    /// <summary>Replaces the batch by <paramref name="pairs"/>, before their first pair (an empty list lets the old batch go).</summary>
    public void Load(List<KeyValuePair<byte[], byte[]>> pairs)
    {
        _pairs = pairs;
        _index = -1;
    }
}
