using System.Runtime.CompilerServices;
using DataStore.Benchmarks.Ycsb;

namespace DataStore.Benchmarks.Peers;

/// <summary>A YCSB key as FASTER's blittable key type: the 12 bytes inline.</summary>
[InlineArray(YcsbKeys.KeySize)]
public struct FasterKey
{
    private byte _first;

    /// <summary>The key holding <paramref name="bytes"/>.</summary>
    public static FasterKey Of(ReadOnlySpan<byte> bytes)
    {
        var key = default(FasterKey);
        bytes.CopyTo(key);
        return key;
    }
}
