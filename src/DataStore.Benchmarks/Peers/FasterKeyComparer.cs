using System.Buffers.Binary;
using FASTER.core;

namespace DataStore.Benchmarks.Peers;

/// <summary>Hashes and compares <see cref="FasterKey"/>s for FASTER's index: the key's last 8 bytes are already a hash.</summary>
public sealed class FasterKeyComparer : IFasterEqualityComparer<FasterKey>
{
    public long GetHashCode64(ref FasterKey key) => Utility.GetHashCode(BinaryPrimitives.ReadInt64LittleEndian(((ReadOnlySpan<byte>)key)[4..]));

    public bool Equals(ref FasterKey first, ref FasterKey second) => ((ReadOnlySpan<byte>)first).SequenceEqual(second);
}
