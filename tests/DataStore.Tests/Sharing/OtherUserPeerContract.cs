using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

/// <summary>
/// A process of another user cannot use the store through its owner (ADR 0015), at each layer that stands in its way:
/// the socket's directory (mode 0700), the socket file (mode 0600), and the peer check (<c>SO_PEERCRED</c>) that both
/// ends make. The owner runs as root here and the other process as user 65534 (<c>setpriv</c>); the store's own files
/// are opened to every user first, so that only the broker's layers stand between that user and the owner.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public abstract class OtherUserPeerContract : StoreContract
{
    private const UnixFileMode Private = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private const UnixFileMode Everyone = (UnixFileMode)0b111_111_111;
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public void A_process_of_another_user_is_refused_at_each_layer_and_the_owner_serves_on()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux() && Environment.UserName == "root" && File.Exists("/usr/bin/setpriv"),
            "needs Linux, root and setpriv (util-linux) to run a client as another user (65534) against a root owner");
        Open().Dispose();
        var run = Directory.Sub("run");
        System.IO.Directory.CreateDirectory(run);
        string[] asOwner = ["/usr/bin/env", $"XDG_RUNTIME_DIR={run}"];
        using var owner = ChildProcess.Start(["hold-open", StorePath, Backend.ToString(), "-", "120000"], wrapper: asOwner);
        owner.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), Wait);
        var host = AccessDeniedProbe.CopyHostFor(Directory);
        OpenToEveryone(StorePath);
        var socket = System.IO.Directory.EnumerateFileSystemEntries(run).Single();

        // 1. The socket's directory belongs to the owner's user alone, as /tmp/datastore-<uid> is made: connect() is refused.
        File.SetUnixFileMode(run, Private);
        AssertRefused(AsStranger(run, host, "put", "stranger", "x"), "ERROR AccessDenied", "connecting to the owner process");

        // 2. A directory every user may enter (a shared XDG_RUNTIME_DIR): the socket file's own mode (0600) refuses.
        File.SetUnixFileMode(run, Everyone);
        AssertRefused(AsStranger(run, host, "put", "stranger", "x"), "ERROR AccessDenied", "connecting to the owner process");

        // 3. A socket every user may connect to: the peer check refuses, in the client (the owner runs as root) ...
        File.SetUnixFileMode(socket, Everyone);
        AssertRefused(AsStranger(run, host, "put", "stranger", "x"), "ERROR AccessDenied", "runs as user 0, not as this process's user 65534");

        // ... and in the owner, for a peer that makes no check of its own: it answers why and hangs up.
        AssertRefused(AsStranger(run, host, "peer-hello"), "REFUSED AccessDenied", "serves only that user's processes, not user 65534");

        var (code, output) = ChildProcess.Run(["put", StorePath, Backend.ToString(), "-", "after", "refusals"], Wait, wrapper: asOwner);
        Assert.True(code == 0 && output.Contains("PUT", StringComparison.Ordinal), $"the owner stopped serving its own user: {output}");
        Assert.False(owner.TryWaitForExit(TimeSpan.Zero), $"the owner exited: {owner.Output}"); // (and kills it)
        StoreAssert.Holds(Open(), "after"u8.ToArray(), "refusals"u8.ToArray());
        Assert.False(Open().HaveKey("stranger"u8));
    }

    private (int Code, string Output) AsStranger(string run, string host, string command, params string[] rest) =>
        ChildProcess.Run([command, StorePath, Backend.ToString(), "-", .. rest], Wait,
            wrapper: ["/usr/bin/env", $"XDG_RUNTIME_DIR={run}", "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"],
            hostAssembly: host);

    private static void AssertRefused((int Code, string Output) result, string prefix, string reason) =>
        Assert.True(result.Output.Contains(prefix, StringComparison.Ordinal) && result.Output.Contains(reason, StringComparison.Ordinal),
            $"expected '{prefix}' saying '{reason}'; the other user's process exited {result.Code}: {result.Output}");

    private static void OpenToEveryone(string path)
    {
        File.SetUnixFileMode(path, Everyone);
        foreach (var entry in new DirectoryInfo(path).EnumerateFileSystemInfos("*", SearchOption.AllDirectories))
        {
            entry.UnixFileMode = entry is DirectoryInfo ? Everyone : Everyone & ~(UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute);
        }
    }
}
