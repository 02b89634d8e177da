using System.Runtime.InteropServices;
using DataStore.Batches;

namespace DataStore;

/// <summary>
/// Puts, deletes and preconditions that a store commits all at once or not at all
/// (<see cref="IKeyValueStore.Write"/>).
/// </summary>
/// <remarks>
/// Preconditions are checked against the store as it is just before the batch applies, inside the same
/// atomic step, so a batch with <see cref="RequireValue"/> is a compare-and-swap. Operations apply in the
/// order they were added. A batch copies the bytes it is given and may be reused after
/// <see cref="Clear"/>; it is not thread-safe.
/// </remarks>
public sealed class WriteBatch
{
    private readonly BatchBuffer _buffer = new();
    private readonly List<BatchEntry> _operations = [];
    private readonly List<BatchEntry> _preconditions = [];

    /// <summary>The number of puts and deletes in the batch.</summary>
    public int Count => _operations.Count;

    /// <summary>The number of preconditions in the batch.</summary>
    public int PreconditionCount => _preconditions.Count;

    /// <summary>Adds an insert or overwrite of <paramref name="key"/>.</summary>
    public WriteBatch Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        _operations.Add(_buffer.Add(BatchEntryKind.Put, key, value));
        return this;
    }

    /// <summary>Adds a removal of <paramref name="key"/> (no error when absent).</summary>
    public WriteBatch Delete(ReadOnlySpan<byte> key)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        _operations.Add(_buffer.Add(BatchEntryKind.Delete, key, default));
        return this;
    }

    /// <summary>Adds a removal of every key starting with <paramref name="prefix"/> (not empty).</summary>
    public WriteBatch DeletePrefix(ReadOnlySpan<byte> prefix)
    {
        KeyGuard.ThrowIfInvalidPrefix(prefix);
        _operations.Add(_buffer.Add(BatchEntryKind.DeletePrefix, prefix, default));
        return this;
    }

    /// <summary>Adds a removal of every key in [<paramref name="start"/>, <paramref name="end"/>); empty bounds are open.</summary>
    public WriteBatch DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        KeyGuard.ThrowIfInvalidRange(start, end);
        _operations.Add(_buffer.Add(BatchEntryKind.DeleteRange, start, end));
        return this;
    }

    /// <summary>Adds a precondition: <paramref name="key"/> must be absent.</summary>
    public WriteBatch RequireAbsent(ReadOnlySpan<byte> key)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        _preconditions.Add(_buffer.Add(BatchEntryKind.RequireAbsent, key, default));
        return this;
    }

    /// <summary>Adds a precondition: <paramref name="key"/> must be present and hold exactly <paramref name="expected"/>.</summary>
    public WriteBatch RequireValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> expected)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        _preconditions.Add(_buffer.Add(BatchEntryKind.RequireValue, key, expected));
        return this;
    }

    /// <summary>Removes everything from the batch so it can be reused.</summary>
    public void Clear()
    {
        _operations.Clear();
        _preconditions.Clear();
        _buffer.Clear();
    }

    internal int OperationCount => _operations.Count;

    /// <summary>
    /// Clears the batch and lets <see cref="AddBorrowed"/> add entries whose bytes stay in <paramref name="bytes"/> (a
    /// received message the engine copies from anyway); they must not change until the batch is cleared again.
    /// </summary>
    internal void ClearAndBorrow(byte[] bytes)
    {
        Clear();
        _buffer.Borrow(bytes);
    }

    /// <summary>Adds an entry of <paramref name="kind"/> whose byte strings sit in the borrowed bytes, checked as the public methods check them.</summary>
    internal void AddBorrowed(BatchEntryKind kind, int firstOffset, int firstLength, int secondOffset, int secondLength)
    {
        var entry = _buffer.AddBorrowed(kind, firstOffset, firstLength, secondOffset, kind.HasSecond() ? secondLength : 0);
        var first = _buffer.First(entry);
        switch (kind)
        {
            case BatchEntryKind.DeletePrefix:
                KeyGuard.ThrowIfInvalidPrefix(first, "prefix");
                break;
            case BatchEntryKind.DeleteRange:
                KeyGuard.ThrowIfInvalidRange(first, _buffer.Second(entry));
                break;
            default:
                KeyGuard.ThrowIfInvalidKey(first, "key");
                break;
        }

        (kind.IsPrecondition() ? _preconditions : _operations).Add(entry);
    }

    internal BatchEntry Operation(int index) => _operations[index];

    /// <summary>Calls <paramref name="visitor"/> for each put and delete, in the order they were added.</summary>
    internal void VisitOperations<TVisitor>(ref TVisitor visitor)
        where TVisitor : struct, IBatchOperationVisitor
    {
        foreach (var operation in CollectionsMarshal.AsSpan(_operations))
        {
            var first = _buffer.First(operation);
            switch (operation.Kind)
            {
                case BatchEntryKind.Put:
                    visitor.Put(first, _buffer.Second(operation));
                    break;
                case BatchEntryKind.Delete:
                    visitor.Delete(first);
                    break;
                case BatchEntryKind.DeletePrefix:
                    visitor.DeletePrefix(first);
                    break;
                case BatchEntryKind.DeleteRange:
                    visitor.DeleteRange(first, _buffer.Second(operation));
                    break;
            }
        }
    }

    internal BatchEntry Precondition(int index) => _preconditions[index];

    internal ReadOnlySpan<byte> First(in BatchEntry entry) => _buffer.First(entry);

    internal ReadOnlySpan<byte> Second(in BatchEntry entry) => _buffer.Second(entry);

    internal PreconditionFailure FailureAt(int index)
    {
        var entry = _preconditions[index];
        var kind = entry.Kind == BatchEntryKind.RequireAbsent ? PreconditionKind.KeyAbsent : PreconditionKind.KeyEquals;
        return new PreconditionFailure(index, First(entry).ToArray(), kind);
    }
}
