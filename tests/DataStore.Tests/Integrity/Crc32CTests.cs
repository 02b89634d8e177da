using System.Numerics;
using DataStore.Integrity;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Integrity;

/// <summary>The CRC-32C that runs three chains over long inputs (and copies as it reads) gives exactly the CRC of one chain, byte by byte.</summary>
public sealed class Crc32CTests
{
    [Fact]
    public void Append_and_AppendCopy_give_the_byte_by_byte_crc_at_every_length_around_their_pieces_and_fed_in_parts()
    {
        var data = Bytes.Random((3 << 20) + 77, 17);
        int[] lengths = [0, 1, 7, 8, 9, 3071, 3072, 3073, 4095, 12287, 12288, 12289, 15359, 15360, 15361, 65536, 65536 + 4, (1 << 20) + 13, data.Length];
        foreach (var length in lengths)
        {
            var span = data.AsSpan(0, length);
            var expected = Crc32C.Seed;
            foreach (var b in span)
            {
                expected = BitOperations.Crc32C(expected, b);
            }

            Assert.True(expected == Crc32C.Append(Crc32C.Seed, span), $"length {length}");
            var copy = new byte[length + 1];
            Assert.True(expected == Crc32C.AppendCopy(Crc32C.Seed, span, copy), $"length {length}, copying");
            Assert.True(span.SequenceEqual(copy.AsSpan(0, length)) && copy[length] == 0, $"length {length}: the copy is the input, and no more");
            var split = length / 3 + 5;
            if (split < length)
            {
                Assert.True(expected == Crc32C.Append(Crc32C.Append(Crc32C.Seed, span[..split]), span[split..]), $"length {length} in two parts");
            }
        }

        // The known check value of CRC-32C ("123456789"), and of 32 bytes of zeros (RFC 3720, B.4).
        Assert.Equal(0xE3069283u, Crc32C.Finish(Crc32C.Append(Crc32C.Seed, "123456789"u8)));
        Assert.Equal(0x8A9136AAu, Crc32C.Finish(Crc32C.Append(Crc32C.Seed, new byte[32])));
    }

    [Fact]
    public void AppendEach_gives_each_input_the_crc_it_has_alone_whatever_their_lengths()
    {
        var data = Bytes.Random(40_000, 23);
        int[] lengths = [0, 1, 7, 8, 9, 17, 137, 141, 3072, 12289, 13_000];
        foreach (var x in lengths)
        {
            foreach (var y in lengths)
            {
                foreach (var z in new[] { 0, 9, 137, 13_000 })
                {
                    var first = data.AsSpan(0, x);
                    var second = data.AsSpan(x + 3, y);
                    var third = data.AsSpan(26_000 + 5, z);
                    uint a = 1, b = Crc32C.Seed, c = 0xDEADBEEF;
                    Crc32C.AppendEach(ref a, first, ref b, second, ref c, third);
                    Assert.True(a == Crc32C.Append(1, first) && b == Crc32C.Append(Crc32C.Seed, second) && c == Crc32C.Append(0xDEADBEEF, third),
                        $"lengths {x}, {y}, {z}");
                }
            }
        }
    }
}
