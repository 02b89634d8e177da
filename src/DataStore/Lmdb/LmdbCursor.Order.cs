using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

// Key order inside a scan: each stored key against the one before it (the damage check) and against the end bound.
internal sealed partial class LmdbCursor
{
    // Keys this long or shorter are compared here a word at a time; longer ones by SequenceCompareTo (vectorised,
    // but a call with its own setup that costs more than the comparison of a short key).
    private const int InlineCompareMax = 32;

    // LMDB hands out stored keys in strictly increasing order; a key at or before the one read last means damaged
    // pages are leading the cursor in circles (LMDB 0.9 has no checksums), and the scan would never end.
    private static void ThrowIfNotAfter(ReadOnlySpan<byte> stored, ReadOnlySpan<byte> previous)
    {
        if (Compare(stored, previous) <= 0)
        {
            throw new LmdbException(LmdbNative.Corrupted);
        }
    }

    // Unsigned byte order (memcmp, then the shorter first), as SequenceCompareTo gives it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Compare(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
    {
        var common = Math.Min(a.Length, b.Length);
        if (common > InlineCompareMax)
        {
            return a.SequenceCompareTo(b);
        }

        ref var x = ref MemoryMarshal.GetReference(a);
        ref var y = ref MemoryMarshal.GetReference(b);
        var i = 0;
        for (; i + sizeof(ulong) <= common; i += sizeof(ulong))
        {
            var u = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref x, i));
            var v = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref y, i));
            if (u != v)
            {
                return BigEndian(u) < BigEndian(v) ? -1 : 1;
            }
        }

        for (; i < common; i++)
        {
            int c = Unsafe.Add(ref x, i), d = Unsafe.Add(ref y, i);
            if (c != d)
            {
                return c - d;
            }
        }

        return a.Length - b.Length;
    }

    private static ulong BigEndian(ulong word) => BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(word) : word;
}
