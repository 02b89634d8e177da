using System.Diagnostics;
using DataStore.Sync;

namespace DataStore.Tests.Writes;

/// <summary>
/// The store's single-writer lock as a queued write's leader enters it (Sqlite's combined writes): it waits what is left
/// of the call's timeout, not a whole timeout again after the time the call spent queued.
/// </summary>
public sealed class StoreWriterLockTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(20);

    [Fact]
    public void A_call_whose_timeout_ran_out_while_queued_is_refused_at_once_while_another_writer_holds_the_lock()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        var writerLock = new StoreWriterLock(EngineMaintenance.Of(store), Timeout);
        using var holder = new Holder(writerLock);
        var queuedSince = Stopwatch.GetTimestamp() - (long)(Timeout.TotalSeconds * Stopwatch.Frequency);
        var clock = Stopwatch.StartNew();

        Assert.Throws<StoreTimeoutException>(() => writerLock.Enter(queuedSince));

        // The whole timeout again would be 20 s; what was left of it is nothing.
        Assert.True(clock.Elapsed < Timeout / 2, $"the queued call waited {clock.Elapsed} for the lock after its timeout had run out");
    }

    [Fact]
    public async Task A_call_with_time_left_gets_the_lock_once_the_holder_lets_go()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        var writerLock = new StoreWriterLock(EngineMaintenance.Of(store), Timeout);
        using var holder = new Holder(writerLock);
        var started = Stopwatch.GetTimestamp();
        var waiter = Task.Run(() =>
        {
            using (writerLock.Enter(started))
            {
                return true;
            }
        }, TestContext.Current.CancellationToken);

        await Task.Delay(100, TestContext.Current.CancellationToken);
        Assert.False(waiter.IsCompleted, "entered while another thread held the lock");
        holder.Dispose();
        Assert.True(await waiter.WaitAsync(Timeout, TestContext.Current.CancellationToken));
    }

    // Another thread holding the lock (a monitor: only the thread that entered it may exit it) until disposed.
    private sealed class Holder : IDisposable
    {
        private readonly ManualResetEventSlim _held = new();
        private readonly ManualResetEventSlim _release = new();
        private readonly Thread _thread;

        public Holder(StoreWriterLock writerLock)
        {
            _thread = new Thread(() =>
            {
                using (writerLock.Enter())
                {
                    _held.Set();
                    _release.Wait();
                }
            });
            _thread.Start();
            _held.Wait(TestContext.Current.CancellationToken);
        }

        public void Dispose()
        {
            if (!_release.IsSet)
            {
                _release.Set();
                _thread.Join();
            }

            _held.Dispose();
            _release.Dispose();
        }
    }
}
