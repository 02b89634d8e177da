using DataStore.Lmdb;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// The map gate: readers mark themselves inside without interlocked operations, and the exclusive side (a remap)
/// must still never run while a reader is inside, nor let a reader in while it runs.
/// </summary>
public sealed class LmdbMapGateTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan Brief = TimeSpan.FromMilliseconds(300);
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Exclusive_waits_for_the_thread_inside_and_holds_new_ones_at_the_door()
    {
        var gate = new LmdbMapGate();
        using var inside = new ManualResetEventSlim();
        using var leave = new ManualResetEventSlim();
        var reader = new Thread(() =>
        {
            var seat = gate.Enter();
            inside.Set();
            leave.Wait(TestContext.Current.CancellationToken);
            gate.Exit(seat);
        });
        reader.Start();
        Assert.True(inside.Wait(Patience, TestContext.Current.CancellationToken));

        var exclusive = Task.Run(gate.BeginExclusive, TestContext.Current.CancellationToken);
        Assert.False(await Finishes(exclusive, Brief), "BeginExclusive returned while a thread was inside");
        leave.Set();
        Assert.True(await Finishes(exclusive, Patience));

        var late = Task.Run(() => gate.Exit(gate.Enter()), TestContext.Current.CancellationToken);
        Assert.False(await Finishes(late, Brief), "a thread entered during the exclusive section");
        gate.EndExclusive();
        Assert.True(await Finishes(late, Patience));
        reader.Join();
    }

    [Fact]
    public void No_reader_is_ever_inside_while_the_exclusive_section_runs()
    {
        var gate = new LmdbMapGate();
        var remapping = 0;
        var violations = 0;
        var stop = 0;
        var readers = Enumerable.Range(0, 3).Select(_ => new Thread(() =>
        {
            while (Volatile.Read(ref stop) == 0)
            {
                var seat = gate.Enter();
                if (Volatile.Read(ref remapping) != 0)
                {
                    Interlocked.Increment(ref violations);
                }

                gate.Exit(seat);
            }
        })).ToList();
        readers.ForEach(t => t.Start());

        for (var round = 0; round < 2_000; round++)
        {
            gate.BeginExclusive();
            Volatile.Write(ref remapping, 1);
            Thread.SpinWait(200);
            Volatile.Write(ref remapping, 0);
            gate.EndExclusive();
        }

        Volatile.Write(ref stop, 1);
        readers.ForEach(t => t.Join());
        Assert.Equal(0, violations);
        Assert.Equal(2_000, gate.Epoch);
    }

    [Fact]
    public void A_thread_entering_again_while_inside_does_not_wait_for_a_pending_exclusive()
    {
        // Enter and Exit pair up on one thread, so this test blocks instead of awaiting.
        var gate = new LmdbMapGate();
        using var began = new ManualResetEventSlim();
        var outer = gate.Enter();
        var exclusive = new Thread(() =>
        {
            gate.BeginExclusive();
            began.Set();
        });
        exclusive.Start();
        Assert.False(began.Wait(Brief, TestContext.Current.CancellationToken));

        var nested = gate.Enter();
        gate.Exit(nested);
        Assert.False(began.IsSet, "the exclusive section began while the outer call was still inside");
        gate.Exit(outer);
        Assert.True(began.Wait(Patience, TestContext.Current.CancellationToken));
        gate.EndExclusive();
        exclusive.Join();
    }

    [Fact]
    public void Threads_that_have_ended_hand_their_seat_and_read_transaction_to_the_next()
    {
        using var store = LmdbTestStores.OpenSmall(_directory.Sub("store"));
        store.Put("k"u8, "v"u8);
        var readers = new List<Thread>();
        for (var i = 0; i < 40; i++)
        {
            var reader = new Thread(() => Assert.True(store.HaveKey("k"u8)));
            readers.Add(reader);
            reader.Start();
            reader.Join();
        }

        // 40 threads in turn needed one seat between them. Seats held by other living threads do not count: the
        // store's own timer reads on pool threads, which stay alive (on a loaded machine it may run on several).
        var seats = store.Environment.Gate.Seats();
        var ours = seats.Where(seat => readers.Contains(seat.Owner) || !seat.Owner.IsAlive).ToArray();
        Assert.True(ours.Length <= 1, $"{ours.Length} seats for 40 threads that read one after another ({seats.Length} in all)");
        Assert.All(ours, seat => Assert.Equal(0, seat.Depth));
        Assert.Contains(seats, seat => seat.Transaction != 0);
    }

    [Fact]
    public void One_thread_reading_two_stores_in_turn_keeps_one_seat_at_each()
    {
        using var first = LmdbTestStores.OpenSmall(_directory.Sub("first"));
        using var second = LmdbTestStores.OpenSmall(_directory.Sub("second"));
        first.Put("a"u8, "1"u8);
        second.Put("b"u8, "2"u8);
        var buffer = new byte[4];
        for (var i = 0; i < 100; i++)
        {
            Assert.Equal(1, first.Get("a"u8, buffer));
            Assert.Equal((byte)'1', buffer[0]);
            Assert.Equal(1, second.Get("b"u8, buffer));
            Assert.Equal((byte)'2', buffer[0]);
            Assert.False(first.HaveKey("b"u8));
        }

        Assert.Single(first.Environment.Gate.Seats());
        Assert.Single(second.Environment.Gate.Seats());
    }

    public void Dispose() => _directory.Dispose();

    private static async Task<bool> Finishes(Task task, TimeSpan within) =>
        await Task.WhenAny(task, Task.Delay(within, TestContext.Current.CancellationToken)) == task;
}
