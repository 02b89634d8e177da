using System.CommandLine;
using DataStore.Cli.Json;
using DataStore.Cli.Verification;

namespace DataStore.Cli.Commands;

/// <summary>
/// <c>datastore verify</c>: the engine's integrity check plus a full read, run in a child process so that an engine
/// crashing on a damaged file becomes a report and exit code 4 instead of a dead tool.
/// </summary>
internal static class VerifyCommand
{
    /// <summary>The hidden option that makes the tool the verifying child.</summary>
    public const string ChildOption = "--verify-child";

    public static CliCommand Create()
    {
        var child = new Option<bool>(ChildOption) { Hidden = true, Description = "Run the verification in this process and report it as protocol lines (used by verify itself)." };
        var json = JsonOutput.CreateOption("the report (the summary line goes to stderr)");
        var command = new Command(
            "verify",
            "Check the store: the engine's own integrity check, then a read of every pair. Prints pairs, bytes, checksum and every problem; "
            + "exit code 4 when anything is wrong, also when the engine crashes on a damaged file (it runs in a child process).")
        {
            child, json,
        };
        return new(command, (context, cancellationToken) => context.Parse.GetValue(child)
            ? VerifyChild.RunAsync(context, cancellationToken)
            : VerifyParent.RunAsync(context, context.Parse.GetValue(json), cancellationToken));
    }
}
