using System.Buffers.Binary;
using System.Runtime.Intrinsics.X86;

namespace DataStore.Packed;

/// <summary>
/// Gathers one 8-byte record per pair while a packed file is written (<see cref="PackedHash.Record"/>: the hash bits
/// that place it, its tag and offset; the block follows from the pairs each block holds), then lays out the
/// open-addressing table (linear probing, <see cref="PackedHash.SlotsFor"/> slots) and writes it.
/// </summary>
internal sealed unsafe class PackedHashBuilder
{
    private const int ChunkLength = 1 << 16;
    private const int PrefetchDistance = 16;
    private readonly List<ulong[]> _records = [];
    private long _count;

    /// <summary>Records the next pair, with <paramref name="key"/>, at <paramref name="offset"/> in its block (pairs come in file order).</summary>
    public void Add(ReadOnlySpan<byte> key, int offset)
    {
        var at = (int)(_count & (ChunkLength - 1));
        if (at == 0)
        {
            _records.Add(new ulong[ChunkLength]);
        }

        _records[^1][at] = PackedHash.Record(PackedHash.Of(key), offset);
        _count++;
    }

    /// <summary>Writes the table to <paramref name="output"/> and forgets the records; <paramref name="blocks"/> says how many pairs each block holds. Returns the slot count.</summary>
    public long Write(PackedPageWriter output, IReadOnlyList<PackedBlockEntry> blocks)
    {
        var slots = PackedHash.SlotsFor(_count);
        var table = new ulong[slots];
        fixed (ulong* start = table)
        {
            var block = -1;
            var left = 0;
            for (var i = 0L; i < _count; i++)
            {
                // The homes are random: fetch the line a later record lands on while this one is placed.
                if (Sse.IsSupported && i + PrefetchDistance < _count)
                {
                    Sse.Prefetch0(start + PackedHash.Home(RecordAt(i + PrefetchDistance) >> 32, slots));
                }

                while (left == 0)
                {
                    left = blocks[++block].Pairs;
                }

                var record = RecordAt(i);
                var position = PackedHash.Home(record >> 32, slots);
                while (start[position] != 0)
                {
                    position = position + 1 == slots ? 0 : position + 1;
                }

                start[position] = PackedHash.SlotOf(record, block);
                left--;
            }
        }

        _records.Clear();
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

    private ulong RecordAt(long index) => _records[(int)(index / ChunkLength)][index & (ChunkLength - 1)];
}
