using System.Diagnostics;
using System.Globalization;

namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 8: a wait for another process that outlasts <see cref="DataStoreOptions.Timeout"/> ends in a
/// <see cref="StoreTimeoutException"/> (the type the README promises, so code can catch it), soon after the timeout.
/// A real child process holds the store the way each backend can be held: its writer lock where the engine is
/// shared, the owner lock (and no answer on the owner socket) where the library shares the store through an owner.
/// </summary>
public abstract class TimeoutContract : StoreContract
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(2);

    // Loose on purpose (two cores shared with other work); the overshoot is printed.
    private static readonly TimeSpan Slack = TimeSpan.FromSeconds(2);

    [Fact]
    public void A_wait_for_another_process_past_the_timeout_is_a_StoreTimeoutException()
    {
        RequireCapability(StoreCapabilities.Persistent, "8: waits for another process time out");
        using (Open())
        {
        }

        var (command, ready) = HolderOf(Backend);
        using var holder = ChildProcess.Start([command, StorePath, Backend.ToString(), "-", "20000"]);
        holder.WaitForLine(line => line.StartsWith(ready, StringComparison.Ordinal), TimeSpan.FromSeconds(60));

        var clock = Stopwatch.StartNew();
        var failure = Record.Exception(() =>
        {
            var options = Options();
            options.Timeout = Timeout;
            using var store = KeyValueStore.Open(options);
            store.Put("k"u8, "v"u8);
        });
        clock.Stop();

        var timeout = Assert.IsType<StoreTimeoutException>(failure);
        Assert.Equal(StoreFailure.Timeout, timeout.Cause);
        Assert.Contains(StorePath, timeout.Message);
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{Backend}: timed out after {clock.Elapsed.TotalSeconds:0.00} s for a {Timeout.TotalSeconds} s timeout"));
        Assert.True(clock.Elapsed < Timeout + Slack, $"{Backend}: the wait ended after {clock.Elapsed.TotalSeconds:0.00} s, the timeout is {Timeout.TotalSeconds} s");
        holder.KillHard();
    }

    // The test host command that holds the store and the line it prints once it does.
    private static (string Command, string Ready) HolderOf(StoreBackend backend) => backend switch
    {
        StoreBackend.Sqlite => ("hold-sqlite-write-lock", "LOCKED"),
        StoreBackend.Lmdb => ("hold-lmdb-write-lock", "LOCKED"),
        StoreBackend.FileSystem => ("hold-filesystem-write-lock", "LOCKED"),
        _ => ("hold-owner-lock", "LOCKED"), // an owner that never answers (an older DataStore without the broker)
    };
}
