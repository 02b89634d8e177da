namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// What the YCSB workloads do to a store: DataStore over one backend, or the code a .NET developer would write by
/// hand over the same engine (a peer). Every member is called from several threads at once.
/// </summary>
public interface IYcsbTarget : IDisposable
{
    /// <summary>Loads pairs, many per transaction where the engine has them (the YCSB load phase).</summary>
    void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs);

    /// <summary>Reads one value into <paramref name="buffer"/>; returns its length, or -1 when the key is absent.</summary>
    int Read(ReadOnlySpan<byte> key, Span<byte> buffer);

    /// <summary>Writes one pair (an update or an insert), committed when it returns.</summary>
    void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Reads up to <paramref name="count"/> pairs in key order from <paramref name="start"/>; returns how many, and touches each value.</summary>
    int Scan(ReadOnlySpan<byte> start, int count);
}
