using System.Buffers.Binary;
using System.Runtime.Intrinsics.X86;

namespace DataStore.Packed;

/// <summary>
/// Gathers one record per pair while a packed file is written (its slot and the hash bits that place it: 12 bytes),
/// then lays out the open-addressing table (linear probing, <see cref="PackedHash.SlotsFor"/> slots) and writes it.
/// </summary>
internal sealed unsafe class PackedHashBuilder
{
    private const int ChunkLength = 1 << 16;
    private const int PrefetchDistance = 16;
    private readonly List<ulong[]> _slots = [];
    private readonly List<uint[]> _homes = [];
    private long _count;

    /// <summary>Records the pair with <paramref name="key"/>, at <paramref name="offset"/> in block <paramref name="block"/>.</summary>
    public void Add(ReadOnlySpan<byte> key, int block, int offset)
    {
        var at = (int)(_count & (ChunkLength - 1));
        if (at == 0)
        {
            _slots.Add(new ulong[ChunkLength]);
            _homes.Add(new uint[ChunkLength]);
        }

        var hash = PackedHash.Of(key);
        _slots[^1][at] = PackedHash.Slot(hash, block, offset);
        _homes[^1][at] = (uint)hash;
        _count++;
    }

    /// <summary>Writes the table to <paramref name="output"/> and forgets the records; returns the slot count.</summary>
    public long Write(PackedPageWriter output)
    {
        var slots = PackedHash.SlotsFor(_count);
        var table = new ulong[slots];
        fixed (ulong* start = table)
        {
            for (var i = 0L; i < _count; i++)
            {
                // The homes are random: fetch the line a later record lands on while this one is placed.
                if (Sse.IsSupported && i + PrefetchDistance < _count)
                {
                    Sse.Prefetch0(start + PackedHash.Home(HomeOf(i + PrefetchDistance), slots));
                }

                var position = PackedHash.Home(HomeOf(i), slots);
                while (start[position] != 0)
                {
                    position = position + 1 == slots ? 0 : position + 1;
                }

                start[position] = _slots[(int)(i / ChunkLength)][i & (ChunkLength - 1)];
            }
        }

        _slots.Clear();
        _homes.Clear();
        var bytes = new byte[ChunkLength * sizeof(ulong)];
        for (var done = 0L; done < slots;)
        {
            var count = (int)Math.Min(ChunkLength, slots - done);
            for (var i = 0; i < count; i++)
            {
                BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(i * sizeof(ulong)), table[done + i]);
            }

            output.Write(bytes.AsSpan(0, count * sizeof(ulong)));
            done += count;
        }

        return slots;
    }

    private uint HomeOf(long record) => _homes[(int)(record / ChunkLength)][record & (ChunkLength - 1)];
}
