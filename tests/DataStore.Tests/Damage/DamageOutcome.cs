namespace DataStore.Tests.Damage;

/// <summary>How a damaged store ended in the child that opened, read, scanned and verified it.</summary>
public enum DamageOutcome
{
    /// <summary>Every pair read back as written.</summary>
    Recovered,

    /// <summary>Every pair as written except the last batches of the killed writer, whole batches dropped from the end of a log (what a power loss can leave).</summary>
    EarlierState,

    /// <summary>A DataStoreException that names the damaged file.</summary>
    ClearError,

    /// <summary>A DataStoreException that does not name the damaged file.</summary>
    UnnamedError,

    /// <summary>An exception that is not a DataStoreException reached the caller.</summary>
    ForeignException,

    /// <summary>The child process died (a signal, an abort, an unhandled exception).</summary>
    Crash,

    /// <summary>The child did not finish within the time allowed.</summary>
    Hang,

    /// <summary>A read returned pairs that are not what was written, or fewer, without an error.</summary>
    WrongData,
}

/// <summary>What the child printed for one case, classified.</summary>
public sealed record DamageResult(DamageCase Case, DamageOutcome Outcome, bool VerifyMissed, string Detail)
{
    /// <summary>Classifies the child's output (see the test host's <c>damage-probe</c>).</summary>
    public static DamageResult From(DamageCase damage, int? exitCode, string output)
    {
        var lines = output.Split('\n');
        string? Line(string prefix) => lines.FirstOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal));
        if (exitCode is null)
        {
            return new(damage, DamageOutcome.Hang, false, Last(output));
        }

        if (Line("FOREIGN ") is { } foreign)
        {
            return new(damage, DamageOutcome.ForeignException, false, foreign);
        }

        if (exitCode != 0)
        {
            return new(damage, DamageOutcome.Crash, false, $"exit {exitCode}: {Last(output)}");
        }

        var verify = Line("VERIFY") ?? "";
        var verifyHealthy = verify == "VERIFY healthy";
        if (Line("OPEN-ERROR ") is { } openError)
        {
            return new(damage, Names(openError, damage) ? DamageOutcome.ClearError : DamageOutcome.UnnamedError, false, openError);
        }

        var reads = Line("READ") ?? Line("WRONG ") ?? "";
        if (reads.StartsWith("READ-ERROR ", StringComparison.Ordinal))
        {
            return new(damage, Names(reads, damage) ? DamageOutcome.ClearError : DamageOutcome.UnnamedError, verifyHealthy, reads + " / " + verify);
        }

        return reads switch
        {
            "READS full" => new(damage, DamageOutcome.Recovered, false, verify),
            _ when reads.StartsWith("READS prefix ", StringComparison.Ordinal) => new(damage, DamageOutcome.EarlierState, false, reads + " / " + verify),
            _ => new(damage, DamageOutcome.WrongData, verifyHealthy, $"{reads} / {verify} / {Last(output)}"),
        };
    }

    private static bool Names(string error, DamageCase damage) => error.Contains(Path.GetFileName(damage.File), StringComparison.Ordinal);

    private static string Last(string output) => output.Length <= 400 ? output : output[^400..];
}
