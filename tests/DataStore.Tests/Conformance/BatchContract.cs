namespace DataStore.Tests.Conformance;

/// <summary>Rule 5 (in one process): batches apply all at once or not at all; preconditions make compare-and-swap.</summary>
public abstract class BatchContract : StoreContract
{
    [Fact]
    public void A_batch_applies_puts_deletes_and_group_deletes_in_order()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Put(Bytes.Of(2, 1), Bytes.Of(2));
        store.Put(Bytes.Of(2, 2), Bytes.Of(2));
        store.Put(Bytes.Of(5), Bytes.Of(5));
        store.Put(Bytes.Of(6), Bytes.Of(6));

        store.Write(new WriteBatch()
            .Put(Bytes.Of(3), Bytes.Of(3))
            .Delete(Bytes.Of(1))
            .DeletePrefix(Bytes.Of(2))
            .Put(Bytes.Of(2, 9), Bytes.Of(9))
            .DeleteRange(Bytes.Of(5), Bytes.Of(6))
            .Put(Bytes.Of(3), Bytes.Of(33)));

        StoreAssert.KeysEqual([[2, 9], [3], [6]], StoreAssert.Scan(store, []));
        StoreAssert.Holds(store, Bytes.Of(3), Bytes.Of(33));
    }

    [Fact]
    public void An_empty_batch_succeeds_and_writes_nothing()
    {
        var store = Open();
        Assert.True(store.TryWrite(new WriteBatch(), out var failure));
        Assert.Null(failure);
        Assert.Empty(StoreAssert.Scan(store, []));
    }

    [Fact]
    public void RequireAbsent_lets_the_batch_through_when_the_key_is_absent()
    {
        var store = Open();
        Assert.True(store.TryWrite(new WriteBatch().RequireAbsent(Bytes.Of(1)).Put(Bytes.Of(1), Bytes.Of(1)), out _));
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void A_failed_precondition_writes_nothing_and_names_itself()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Put(Bytes.Of(2), Bytes.Of(2));
        var batch = new WriteBatch()
            .RequireValue(Bytes.Of(1), Bytes.Of(1))
            .RequireAbsent(Bytes.Of(2))
            .Put(Bytes.Of(1), Bytes.Of(100))
            .Put(Bytes.Of(3), Bytes.Of(3))
            .DeletePrefix(Bytes.Of(2));

        Assert.False(store.TryWrite(batch, out var failure));
        Assert.Equal(1, failure.Index);
        Assert.Equal(Bytes.Of(2), failure.Key);
        Assert.Equal(PreconditionKind.KeyAbsent, failure.Kind);
        StoreAssert.KeysEqual([[1], [2]], StoreAssert.Scan(store, []));
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void Write_throws_PreconditionFailedException_and_writes_nothing()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        var batch = new WriteBatch().RequireValue(Bytes.Of(1), Bytes.Of(2)).Put(Bytes.Of(1), Bytes.Of(3));

        var error = Assert.Throws<PreconditionFailedException>(() => store.Write(batch));
        Assert.Equal(PreconditionKind.KeyEquals, error.Failure.Kind);
        Assert.Equal(StoreFailure.PreconditionFailed, error.Cause);
        Assert.Contains("precondition 0", error.Message);
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void RequireValue_fails_for_an_absent_key_and_for_an_empty_value_mismatch()
    {
        var store = Open();
        store.Put(Bytes.Of(2), []);
        Assert.False(store.TryWrite(new WriteBatch().RequireValue(Bytes.Of(1), []).Put(Bytes.Of(9), []), out _));
        Assert.False(store.TryWrite(new WriteBatch().RequireValue(Bytes.Of(2), Bytes.Of(0)).Put(Bytes.Of(9), []), out _));
        Assert.True(store.TryWrite(new WriteBatch().RequireValue(Bytes.Of(2), []).Put(Bytes.Of(9), []), out _));
        Assert.True(store.HaveKey(Bytes.Of(9)));
    }

    [Fact]
    public void A_batch_can_be_cleared_and_reused()
    {
        var store = Open();
        var batch = new WriteBatch().Put(Bytes.Of(1), Bytes.Of(1)).RequireAbsent(Bytes.Of(5));
        batch.Clear();
        Assert.Equal(0, batch.Count);
        Assert.Equal(0, batch.PreconditionCount);
        batch.Put(Bytes.Of(2), Bytes.Of(2));
        store.Write(batch);
        StoreAssert.KeysEqual([[2]], StoreAssert.Scan(store, []));
    }

    [Fact]
    public void Compare_and_swap_from_many_threads_loses_no_increment()
    {
        var store = Open();
        var counter = Bytes.Utf8("counter");
        store.Put(counter, BitConverter.GetBytes(0L));
        const int threads = 4, increments = 100;

        Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, thread =>
        {
            for (var done = 0; done < increments;)
            {
                var current = store.Get(counter)!;
                var next = BitConverter.GetBytes(BitConverter.ToInt64(current) + 1);
                if (store.TryWrite(new WriteBatch().RequireValue(counter, current).Put(counter, next), out _))
                {
                    done++;
                }
            }
        });

        Assert.Equal(threads * increments, BitConverter.ToInt64(store.Get(counter)));
    }

    [Fact]
    public void A_large_batch_keeps_the_order_of_each_keys_operations()
    {
        // Large enough that a backend may apply it in key order: the keys' first operations are added in descending key
        // order and their second ones ascending, so only each key's own order decides what stays.
        const int Keys = 64;
        var store = Open();
        var batch = new WriteBatch();
        for (var i = Keys - 1; i >= 0; i--)
        {
            _ = (i % 3) switch
            {
                0 => batch.Put(Bytes.Of((byte)i), Bytes.Of(1)),
                1 => batch.Delete(Bytes.Of((byte)i)),
                _ => batch.Put(Bytes.Of((byte)i), Bytes.Of(1)),
            };
        }

        for (var i = 0; i < Keys; i++)
        {
            _ = (i % 3) switch
            {
                0 => batch.Delete(Bytes.Of((byte)i)),
                1 => batch.Put(Bytes.Of((byte)i), Bytes.Of(2)),
                _ => batch.Put(Bytes.Of((byte)i), Bytes.Of(3)),
            };
        }

        store.Write(batch);

        var expected = Enumerable.Range(0, Keys).Where(i => i % 3 != 0).Select(i => (Key: Bytes.Of((byte)i), Value: Bytes.Of((byte)(i % 3 == 1 ? 2 : 3)))).ToList();
        var actual = StoreAssert.Scan(store, []);
        Assert.Equal(expected.Select(pair => Convert.ToHexString(pair.Key) + "=" + Convert.ToHexString(pair.Value)),
            actual.Select(pair => Convert.ToHexString(pair.Key) + "=" + Convert.ToHexString(pair.Value)));
    }

    [Fact]
    public void A_large_batch_commits_whole()
    {
        var store = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < 10_000; i++)
        {
            batch.Put(BitConverter.GetBytes(i).Reverse().ToArray(), Bytes.Random(64, i));
        }

        store.Write(batch);
        Assert.Equal(10_000, StoreAssert.Scan(store, [], keysOnly: true).Count);
    }
}
