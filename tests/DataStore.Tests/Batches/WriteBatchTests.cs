namespace DataStore.Tests.Batches;

/// <summary>A WriteBatch keeps every entry's bytes exactly, across Clear and reuse, small and large alike.</summary>
public sealed class WriteBatchTests
{
    [Fact]
    public void Entries_read_back_exactly_after_repeated_clear_and_refill_with_mixed_sizes()
    {
        var batch = new WriteBatch();
        var random = new Random(5);
        for (var round = 0; round < 5; round++)
        {
            batch.Clear();
            var expected = new List<(byte[] Key, byte[] Value)>();
            for (var i = 0; i < 2_000; i++)
            {
                var key = Conformance.Bytes.Random(1 + random.Next(40), random.Next());
                var value = Conformance.Bytes.Random(random.Next(20) == 0 ? 70_000 : random.Next(300), random.Next());
                batch.Put(key, value);
                expected.Add((key, value));
            }

            Assert.Equal(expected.Count, batch.Count);
            for (var i = 0; i < expected.Count; i++)
            {
                var entry = batch.Operation(i);
                Assert.True(batch.First(entry).SequenceEqual(expected[i].Key), $"round {round}, key {i}");
                Assert.True(batch.Second(entry).SequenceEqual(expected[i].Value), $"round {round}, value {i}");
            }
        }
    }

    [Fact]
    public void Preconditions_and_operations_are_counted_apart()
    {
        var batch = new WriteBatch().RequireAbsent([1]).RequireValue([2], [3]).Put([1], [1]).Delete([2]).DeletePrefix([3]).DeleteRange([4], [5]);
        Assert.Equal(4, batch.Count);
        Assert.Equal(2, batch.PreconditionCount);
    }
}
