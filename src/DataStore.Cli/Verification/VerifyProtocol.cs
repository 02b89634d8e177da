using System.Globalization;

namespace DataStore.Cli.Verification;

/// <summary>
/// The lines a verify child writes to its stdout, one tab-separated record each: <c>store BACKEND PATH</c>,
/// <c>progress PHASE PAIRS BYTES TOTALPAIRS TOTALBYTES</c> ('-' for unknown), <c>digest PAIRS BYTES CHECKSUM</c>,
/// <c>problem TEXT</c>, and <c>end</c> last, so a child that dies early is told apart from one that finished.
/// </summary>
internal static class VerifyProtocol
{
    public const string Store = "store";
    public const string Progress = "progress";
    public const string Digest = "digest";
    public const string Problem = "problem";
    public const string End = "end";

    public static string StoreLine(StoreBackend backend, string path) => Join(Store, backend.ToString(), path);

    public static string ProgressLine(StoreProgress value) =>
        Join(Progress, value.Phase.ToString(), Number(value.Pairs), Number(value.Bytes), Optional(value.TotalPairs), Optional(value.TotalBytes));

    public static string DigestLine(StoreDigest digest) => Join(Digest, Number(digest.Pairs), Number(digest.Bytes), digest.Checksum);

    public static string ProblemLine(string problem) => Join(Problem, problem);

    /// <summary>The record in <paramref name="line"/>: its kind and fields.</summary>
    public static (string Kind, string[] Fields) Parse(string line)
    {
        var parts = line.Split('\t');
        return (parts[0], parts[1..]);
    }

    public static StoreProgress ParseProgress(string[] fields) => new(
        Enum.Parse<StorePhase>(fields[0]), long.Parse(fields[1], CultureInfo.InvariantCulture), long.Parse(fields[2], CultureInfo.InvariantCulture),
        ParseOptional(fields[3]), ParseOptional(fields[4]));

    public static StoreDigest ParseDigest(string[] fields) =>
        new(long.Parse(fields[0], CultureInfo.InvariantCulture), long.Parse(fields[1], CultureInfo.InvariantCulture), fields[2]);

    private static string Join(params string[] fields) =>
        string.Join('\t', fields.Select(f => f.Replace('\t', ' ').Replace('\r', ' ').Replace('\n', ' ')));

    private static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Optional(long? value) => value is { } known ? Number(known) : "-";

    private static long? ParseOptional(string text) => text == "-" ? null : long.Parse(text, CultureInfo.InvariantCulture);
}
