using System.Buffers.Binary;

namespace DataStore.Tests.Transfer;

/// <summary>
/// A seeded mutation fuzz of the dump reader: valid dumps are damaged in ways a CRC cannot catch (inside a frame,
/// re-checksummed) and in ways it can (anywhere in the file). Every outcome must be the original pairs or a
/// <see cref="DumpFormatException"/>, never another exception, never other pairs, never a large allocation.
/// CI runs a fixed budget; <c>DATASTORE_FUZZ_ITERATIONS=200000</c> runs a soak; a failure prints its seed.
/// </summary>
public sealed class DumpFuzzTests
{
    private const int DefaultIterations = 3000;
    private const long AllocationLimit = 32 << 20; // generous: the reader's buffer never exceeds one 1 MiB frame

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void A_mutated_dump_reads_back_unchanged_or_is_refused(int round)
    {
        var iterations = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_FUZZ_ITERATIONS"), out var n) ? n : DefaultIterations;
        var seedBase = round * 1_000_003;
        for (var i = 0; i < iterations; i++)
        {
            var seed = seedBase + i;
            var random = new Random(seed);
            var (pairs, dump) = ValidDump(random);
            var mutated = random.Next(3) == 0 ? MutateAnywhere(random, dump) : MutateInsideAFrame(random, dump);
            Check(seed, pairs, mutated);
        }
    }

    private static void Check(int seed, List<(byte[] Key, byte[] Value)> original, byte[] dump)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        try
        {
            var (pairs, _) = DumpReading.ReadAll(dump);
            Assert.True(pairs.Count == original.Count && pairs.Zip(original).All(p => p.First.Key.AsSpan().SequenceEqual(p.Second.Key) && p.First.Value.AsSpan().SequenceEqual(p.Second.Value)),
                $"seed {seed}: a mutated dump was read as other pairs ({pairs.Count} instead of {original.Count})");
        }
        catch (DumpFormatException)
        {
            // the expected outcome of damage
        }
        catch (Exception e)
        {
            Assert.Fail($"seed {seed}: the reader threw {e.GetType().Name} instead of DumpFormatException: {e.Message}");
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < AllocationLimit + (dump.Length * 4L), $"seed {seed}: reading a {dump.Length}-byte dump allocated {allocated:N0} bytes");
    }

    private static (List<(byte[] Key, byte[] Value)> Pairs, byte[] Dump) ValidDump(Random random)
    {
        var builder = new DumpBuilder { FrameLength = random.Next(8, 300) };
        var keys = new SortedSet<byte[]>(Comparer<byte[]>.Create((x, y) => x.AsSpan().SequenceCompareTo(y)));
        for (var count = random.Next(0, 24); keys.Count < count;)
        {
            var key = new byte[random.Next(1, 40)];
            random.NextBytes(key);
            keys.Add(key); // a dump holds distinct keys in ascending order
        }

        var pairs = new List<(byte[], byte[])>();
        foreach (var key in keys)
        {
            var value = new byte[random.Next(0, 200)];
            random.NextBytes(value);
            builder.Pair(key, value);
            pairs.Add((key, value));
        }

        return (pairs, builder.End().Build());
    }

    /// <summary>Changes bytes inside one frame's payload and fixes its CRC, so the pair decoder sees the damage.</summary>
    private static byte[] MutateInsideAFrame(Random random, byte[] dump)
    {
        var frames = FrameOffsets(dump);
        var (start, length) = frames[random.Next(frames.Count)];
        var payload = dump.AsSpan(start + 4, length).ToArray().ToList();
        switch (random.Next(5))
        {
            case 0: // flip a bit
                var at = random.Next(payload.Count);
                payload[at] ^= (byte)(1 << random.Next(8));
                break;
            case 1: // an absurd length where a varint may start
                payload.InsertRange(random.Next(payload.Count + 1), DumpBuilder.Varint((ulong)random.NextInt64(1L << 20, long.MaxValue)));
                break;
            case 2: // a run of continuation bytes (an endless varint)
                payload.InsertRange(random.Next(payload.Count + 1), Enumerable.Repeat((byte)0xFF, random.Next(1, 16)));
                break;
            case 3: // drop a piece
                var cut = random.Next(payload.Count);
                payload.RemoveRange(cut, random.Next(1, payload.Count - cut + 1));
                break;
            default: // repeat a piece (a pair twice, keys out of order)
                var from = random.Next(payload.Count);
                var piece = payload.GetRange(from, Math.Min(payload.Count - from, random.Next(1, 64)));
                payload.InsertRange(random.Next(payload.Count + 1), piece);
                break;
        }

        if (payload.Count == 0)
        {
            payload.Add(0);
        }

        return [.. dump.AsSpan(0, start), .. DumpBuilder.Frame(payload.ToArray()), .. dump.AsSpan(start + 8 + length)];
    }

    /// <summary>Damages the file itself: header, frame lengths, CRCs, trailer, or a cut at any point.</summary>
    private static byte[] MutateAnywhere(Random random, byte[] dump)
    {
        var copy = dump.ToArray();
        switch (random.Next(3))
        {
            case 0:
                for (var flips = random.Next(1, 4); flips > 0; flips--)
                {
                    copy[random.Next(copy.Length)] ^= (byte)(1 << random.Next(8));
                }

                return copy;
            case 1:
                return copy[..random.Next(copy.Length)];
            default:
                var frames = FrameOffsets(copy);
                var (start, _) = frames[random.Next(frames.Count)];
                BinaryPrimitives.WriteUInt32LittleEndian(copy.AsSpan(start), (uint)random.NextInt64(0, uint.MaxValue + 1L));
                return copy;
        }
    }

    /// <summary>Where each frame starts (its length prefix) and its payload length; the header is 28 bytes, the trailer 52.</summary>
    private static List<(int Start, int Length)> FrameOffsets(byte[] dump)
    {
        var frames = new List<(int, int)>();
        for (var at = 28; at < dump.Length - 52;)
        {
            var length = (int)BinaryPrimitives.ReadUInt32LittleEndian(dump.AsSpan(at));
            frames.Add((at, length));
            at += 8 + length;
        }

        return frames;
    }
}
