namespace DataStore.FileSystem;

/// <summary>The pairs a scan read, packed into one growing array: one chunk of a cursor.</summary>
internal sealed class ScanBuffer
{
    private byte[] _data = new byte[4096];
    private int _used;
    private readonly List<(int Key, int KeyLength, int Value, int ValueLength)> _entries = [];

    public int Count => _entries.Count;

    /// <summary>The bytes of keys and values held.</summary>
    public long Bytes => _used;

    public void Add(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var needed = (long)_used + key.Length + value.Length;
        if (needed > _data.Length)
        {
            Array.Resize(ref _data, (int)Math.Min(Array.MaxLength, Math.Max(needed, 2L * _data.Length)));
        }

        key.CopyTo(_data.AsSpan(_used));
        value.CopyTo(_data.AsSpan(_used + key.Length));
        _entries.Add((_used, key.Length, _used + key.Length, value.Length));
        _used += key.Length + value.Length;
    }

    public ReadOnlySpan<byte> Key(int index) => _data.AsSpan(_entries[index].Key, _entries[index].KeyLength);

    public ReadOnlySpan<byte> Value(int index) => _data.AsSpan(_entries[index].Value, _entries[index].ValueLength);
}
