using DataStore.Sync;

namespace DataStore.Tests.Sync;

/// <summary>The store's call gate: Close waits for every call that got in, wherever it entered and left, and lets no call in after.</summary>
public sealed class StoreCallGateTests
{
    [Fact]
    public async Task Close_waits_for_a_call_that_leaves_on_another_thread()
    {
        var gate = new StoreCallGate();
        Assert.True(OnOwnThread(gate.TryEnter));

        var closing = Task.Factory.StartNew(gate.Close, TaskCreationOptions.LongRunning);
        Assert.True(SpinWait.SpinUntil(() => gate.IsClosed, TimeSpan.FromSeconds(30)), "Close never began");
        Thread.Sleep(200);
        Assert.False(closing.IsCompleted);
        Assert.False(OnOwnThread(gate.TryEnter));

        OnOwnThread(() =>
        {
            gate.Exit();
            return true;
        });
        Assert.True(await closing.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken));
        Assert.False(gate.Close());
    }

    [Fact]
    public void No_call_is_inside_once_Close_returns_while_threads_enter_and_leave()
    {
        for (var round = 0; round < 20; round++)
        {
            var gate = new StoreCallGate();
            var inside = 0;
            var violations = 0;
            var stop = false;
            using var started = new CountdownEvent(4);
            var threads = Enumerable.Range(0, 4).Select(_ => new Thread(() =>
            {
                started.Signal();
                while (!Volatile.Read(ref stop))
                {
                    if (!gate.TryEnter())
                    {
                        continue;
                    }

                    Interlocked.Increment(ref inside);
                    Thread.SpinWait(20);
                    Interlocked.Decrement(ref inside);
                    gate.Exit();
                }
            })).ToArray();
            foreach (var thread in threads)
            {
                thread.Start();
            }

            started.Wait(TestContext.Current.CancellationToken);
            Thread.Sleep(round % 4);
            Assert.True(gate.Close());
            violations += Volatile.Read(ref inside);
            for (var i = 0; i < 1_000; i++)
            {
                violations += Volatile.Read(ref inside);
            }

            Volatile.Write(ref stop, true);
            foreach (var thread in threads)
            {
                thread.Join();
            }

            Assert.Equal(0, violations);
        }
    }

    private static bool OnOwnThread(Func<bool> action)
    {
        var result = false;
        var thread = new Thread(() => result = action());
        thread.Start();
        thread.Join();
        return result;
    }
}
