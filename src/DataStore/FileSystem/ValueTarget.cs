using System.Buffers;

namespace DataStore.FileSystem;

/// <summary>
/// Where a Get reads one key's value: straight into the caller's span or buffer writer, so that a large value is never
/// copied through a buffer of ours (<see cref="KeyFile.ReadAndClose"/>). The default target has none: the value is read
/// into this thread's buffer, as every other read does.
/// </summary>
internal ref struct ValueTarget
{
    private readonly Span<byte> _span;
    private readonly IBufferWriter<byte>? _writer;

    /// <summary>Reads <paramref name="key"/>'s value into <paramref name="span"/> when it fits.</summary>
    public ValueTarget(ReadOnlySpan<byte> key, Span<byte> span)
    {
        Key = key;
        _span = span;
        IsSet = true;
    }

    /// <summary>Reads <paramref name="key"/>'s value into <paramref name="writer"/>.</summary>
    public ValueTarget(ReadOnlySpan<byte> key, IBufferWriter<byte> writer)
    {
        Key = key;
        _writer = writer;
        IsSet = true;
    }

    /// <summary>The key whose value this target takes; the files of other keys (a hashed name's chain) are read as before.</summary>
    public ReadOnlySpan<byte> Key { get; }

    /// <summary>False for the default target.</summary>
    public bool IsSet { get; }

    /// <summary>The value's length, once a read has found it (whether or not it fitted).</summary>
    public int Length { get; private set; }

    /// <summary>
    /// The place for a value of <paramref name="length"/> bytes, exactly that long; false when the caller's span is
    /// shorter (then only the length is returned, and the key file still checks the value).
    /// </summary>
    public bool TryReserve(int length, out Span<byte> place)
    {
        Length = length;
        place = _writer is not null ? _writer.GetSpan(length)[..length] : length <= _span.Length ? _span[..length] : [];
        return _writer is not null || length <= _span.Length;
    }

    /// <summary>Hands a value read and checked into the place <see cref="TryReserve"/> gave to the caller (a writer advances past it).</summary>
    public readonly void Commit() => _writer?.Advance(Length);
}
