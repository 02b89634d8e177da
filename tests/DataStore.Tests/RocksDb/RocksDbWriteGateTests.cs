using DataStore.RocksDb;

namespace DataStore.Tests.RocksDb;

/// <summary>The RocksDb write gate: plain writes enter shared without a lock, a write that reads the store first holds them off.</summary>
public sealed class RocksDbWriteGateTests
{
    private static readonly TimeSpan Short = TimeSpan.FromMilliseconds(300);

    [Fact]
    public void A_plain_write_waits_for_an_exclusive_one_and_times_out_past_the_timeout()
    {
        using var gate = new RocksDbWriteGate("/store", Short);
        gate.Enter(exclusive: true);
        var started = Environment.TickCount64;
        var error = OnOwnThread(() => gate.Enter(exclusive: false));
        Assert.IsType<StoreTimeoutException>(error);
        Assert.InRange(Environment.TickCount64 - started, 250, 5_000);
        gate.Exit(exclusive: true);
        Assert.Null(OnOwnThread(() => { gate.Enter(exclusive: false); gate.Exit(exclusive: false); }));
    }

    [Fact]
    public void An_exclusive_write_waits_for_the_plain_writes_already_in_and_then_enters()
    {
        using var gate = new RocksDbWriteGate("/store", TimeSpan.FromSeconds(10));
        using var leave = new ManualResetEventSlim();
        var plain = HoldShared(gate, leave);

        var exclusiveIn = 0L;
        var exclusive = new Thread(() =>
        {
            gate.Enter(exclusive: true);
            Volatile.Write(ref exclusiveIn, Environment.TickCount64);
            gate.Exit(exclusive: true);
        });
        exclusive.Start();
        Thread.Sleep(200);
        Assert.Equal(0, Volatile.Read(ref exclusiveIn));
        var released = Environment.TickCount64;
        leave.Set();
        plain.Join();
        exclusive.Join();
        Assert.True(Volatile.Read(ref exclusiveIn) >= released);
    }

    [Fact]
    public void An_exclusive_write_that_times_out_leaves_the_gate_open_to_plain_writes()
    {
        using var gate = new RocksDbWriteGate("/store", Short);
        using var leave = new ManualResetEventSlim();
        var plain = HoldShared(gate, leave);

        Assert.IsType<StoreTimeoutException>(OnOwnThread(() => gate.Enter(exclusive: true)));
        Assert.Null(OnOwnThread(() => { gate.Enter(exclusive: false); gate.Exit(exclusive: false); }));
        leave.Set();
        plain.Join();
        Assert.Null(OnOwnThread(() => { gate.Enter(exclusive: true); gate.Exit(exclusive: true); }));
    }

    // A plain write that stays in the gate, on a thread of its own, until `leave` is set.
    private static Thread HoldShared(RocksDbWriteGate gate, ManualResetEventSlim leave)
    {
        using var entered = new ManualResetEventSlim();
        var plain = new Thread(() =>
        {
            gate.Enter(exclusive: false);
            entered.Set();
            leave.Wait();
            gate.Exit(exclusive: false);
        });
        plain.Start();
        entered.Wait(TestContext.Current.CancellationToken);
        return plain;
    }

    // Runs on a thread of its own (the gate's entries belong to the thread that made them); returns what it threw.
    private static Exception? OnOwnThread(Action action)
    {
        Exception? error = null;
        var thread = new Thread(() =>
        {
            try
            {
                action();
            }
            catch (Exception e)
            {
                error = e;
            }
        });
        thread.Start();
        thread.Join();
        return error;
    }
}
