using DataStore.Batches;
using DataStore.Transfer;

namespace DataStore.ChangeFeed;

/// <summary>
/// The bytes of one change-log record: for each change, its kind (1 Put, 2 Delete, 3 DeleteRange), the key's length as a
/// varint and the key, and for a range its end the same way. Keys only: values stay in the store. Reused by one writer
/// at a time (the backends build records under their write lock).
/// </summary>
internal sealed class ChangeRecord
{
    private byte[] _buffer = new byte[256];
    private int _length;

    /// <summary>The record built so far.</summary>
    public ReadOnlySpan<byte> Bytes => _buffer.AsSpan(0, _length);

    /// <summary>Starts a new record.</summary>
    public ChangeRecord Clear()
    {
        _length = 0;
        return this;
    }

    /// <summary>Adds one change; <paramref name="end"/> only for a range.</summary>
    public ChangeRecord Add(KeyChangeKind kind, ReadOnlySpan<byte> key, ReadOnlySpan<byte> end = default)
    {
        Reserve(1 + (2 * Varint.MaxBytes) + key.Length + end.Length);
        _buffer[_length++] = (byte)(kind + 1);
        Append(key);
        if (kind == KeyChangeKind.DeleteRange)
        {
            Append(end);
        }

        return this;
    }

    /// <summary>Adds every operation of <paramref name="batch"/>, in its order (its preconditions change nothing).</summary>
    public ChangeRecord Add(WriteBatch batch)
    {
        for (var i = 0; i < batch.OperationCount; i++)
        {
            var operation = batch.Operation(i);
            var first = batch.First(operation);
            _ = operation.Kind switch
            {
                BatchEntryKind.Put => Add(KeyChangeKind.Put, first),
                BatchEntryKind.Delete => Add(KeyChangeKind.Delete, first),
                BatchEntryKind.DeletePrefix => Add(KeyChangeKind.DeleteRange, first, KeyOrder.TryGetPrefixEnd(first, out var end) ? end : default),
                _ => Add(KeyChangeKind.DeleteRange, first, batch.Second(operation)),
            };
        }

        return this;
    }

    /// <summary>The changes of a stored record that touch [<paramref name="start"/>, <paramref name="end"/>) (an empty end is open).</summary>
    /// <exception cref="FormatException">The record is damaged.</exception>
    public static List<KeyChange> Read(ReadOnlySpan<byte> record, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var changes = new List<KeyChange>();
        var position = 0;
        while (position < record.Length)
        {
            var kind = (KeyChangeKind)(record[position++] - 1);
            if (kind is < KeyChangeKind.Put or > KeyChangeKind.DeleteRange)
            {
                throw new FormatException($"a change-log record holds the unknown change kind {(int)kind + 1}");
            }

            var key = ReadBytes(record, ref position);
            var rangeEnd = kind == KeyChangeKind.DeleteRange ? ReadBytes(record, ref position) : [];
            var touches = kind == KeyChangeKind.DeleteRange
                ? (end.IsEmpty || key.AsSpan().SequenceCompareTo(end) < 0) && (rangeEnd.Length == 0 || rangeEnd.AsSpan().SequenceCompareTo(start) > 0)
                : key.AsSpan().SequenceCompareTo(start) >= 0 && (end.IsEmpty || key.AsSpan().SequenceCompareTo(end) < 0);
            if (touches)
            {
                changes.Add(new KeyChange(kind, key, rangeEnd));
            }
        }

        return changes;
    }

    private static byte[] ReadBytes(ReadOnlySpan<byte> record, ref int position)
    {
        uint length = 0;
        for (var shift = 0; ; shift += 7)
        {
            if (position >= record.Length || shift > 28)
            {
                throw new FormatException("a change-log record ends inside a length");
            }

            var b = record[position++];
            length |= (uint)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                break;
            }
        }

        if (length > (uint)(record.Length - position))
        {
            throw new FormatException("a change-log record ends inside a key");
        }

        var bytes = record.Slice(position, (int)length).ToArray();
        position += (int)length;
        return bytes;
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        _length += Varint.Write(_buffer.AsSpan(_length), (uint)bytes.Length);
        bytes.CopyTo(_buffer.AsSpan(_length));
        _length += bytes.Length;
    }

    private void Reserve(int more)
    {
        if (_length + more > _buffer.Length)
        {
            Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + more));
        }
    }
}
