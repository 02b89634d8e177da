using System.Diagnostics;
using System.Globalization;
using DataStore.Tests.Conformance;
using DataStore.Tests.ResourceFaults;

namespace DataStore.Tests.Sharing;

/// <summary>
/// A client whose owner process is stopped after answering it (SIGSTOP, Ctrl+Z in a terminal, a debugger) gives up after
/// the store's timeout, as an open beside a stopped owner does, instead of the 10-minute bound for an owner that runs but
/// does not answer (ADR 0015): a read with <see cref="StoreTimeoutException"/>, a write it sent with
/// <see cref="OutcomeUnknownException"/>. Once the owner continues, the clients work again. A real child is the owner.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public abstract class StoppedOwnerContract : StoreContract
{
    private static readonly TimeSpan StoreTimeout = TimeSpan.FromSeconds(1);

    // Far below the old wait (the timeout plus 10 minutes), far above the new one (about twice the timeout) on a loaded machine.
    private static readonly TimeSpan GiveUpWithin = TimeSpan.FromSeconds(30);

    [Fact]
    public void A_call_to_an_owner_stopped_after_it_answered_ends_after_the_timeout_and_works_once_it_continues()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "a stopped owner is seen through /proc on Linux; elsewhere only the hung-owner bound ends a wait");
        using var owner = ChildProcess.Start(["hold-on-cue", StorePath, Backend.ToString(), "-"], input: true);
        owner.WaitForLine(line => line == "LOCKED", TimeSpan.FromSeconds(90));
        var reader = Open(o => o.Timeout = StoreTimeout);
        var writer = Open(o => o.Timeout = StoreTimeout);
        writer.Put("before"u8, "1"u8);
        Assert.Equal(StoreRole.Client, reader.Sharing.Role);
        Assert.Equal(owner.Id, reader.Sharing.OwnerProcessId);
        Assert.True(reader.HaveKey("before"u8));

        FaultChild.Stop(owner.Id);
        try
        {
            var read = Timed(() => reader.Get("before"u8));
            Assert.IsType<StoreTimeoutException>(read);
            Assert.Contains(StorePath, read.Message);
            var write = Timed(() => writer.Put("while-stopped"u8, "2"u8));
            var unknown = Assert.IsType<OutcomeUnknownException>(write);
            Assert.Equal(owner.Id, unknown.OwnerProcessId);
            Assert.Contains("stopped", write.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            FaultChild.Signal(owner.Id, "CONT");
        }

        // The continued owner answers again; the write it received was applied at most once (here: once, it was read in full).
        Assert.Equal("1"u8.ToArray(), reader.Get("before"u8));
        var applied = writer.Get("while-stopped"u8);
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: the write sent to the stopped owner was {(applied is null ? "not applied" : "applied once it continued")}");
        Assert.True(applied is null || applied.AsSpan().SequenceEqual("2"u8));
        writer.Put("after"u8, "3"u8);
        Assert.True(reader.HaveKey("after"u8));
        owner.CloseInput();
    }

    private Exception? Timed(Action call)
    {
        var clock = Stopwatch.StartNew();
        var task = Task.Run(call);
        var ended = ((IAsyncResult)task).AsyncWaitHandle.WaitOne(GiveUpWithin);
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{Backend}: with the owner stopped, {(ended ? task.Exception?.InnerException?.GetType().Name ?? "no failure" : "still waiting")} after {clock.Elapsed.TotalSeconds:0.00} s ({StoreTimeout.TotalSeconds} s timeout)"));
        Assert.True(ended, $"{Backend}: a call to a stopped owner still waited after {GiveUpWithin.TotalSeconds} s; the store's timeout is {StoreTimeout.TotalSeconds} s");
        return task.Exception?.InnerException;
    }
}
