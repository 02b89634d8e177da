using System.Text;
using System.Text.RegularExpressions;

namespace DataStore.Tests.Cli;

/// <summary>Stores, reports and damage for the tests of export, import, migrate, backup, verify and compact.</summary>
public static partial class MaintenanceStores
{
    /// <summary>
    /// <paramref name="count"/> text pairs plus the awkward ones: binary keys at both ends of the byte order, an empty
    /// value, a key past LMDB's and LiteDB's index limits, and a 100 KiB value.
    /// </summary>
    public static IEnumerable<(byte[] Key, byte[] Value)> Sample(int count)
    {
        for (var i = 0; i < count; i++)
        {
            yield return (Encoding.UTF8.GetBytes($"mods/{i:D5}"), Encoding.UTF8.GetBytes($"value {i} {new string('x', i % 50)}"));
        }

        yield return ([0x00], [0xff, 0x00, 0x0a]);
        yield return ([0xff, 0xff, 0x00], []);
        yield return ([.. Enumerable.Repeat((byte)'L', 1500)], [1, 2, 3]);
        yield return ("big"u8.ToArray(), [.. Enumerable.Range(0, 100 * 1024).Select(i => (byte)(i * 7))]);
    }

    /// <summary>Every pair of the store at <paramref name="path"/>, read in this process, as hex for readable failures.</summary>
    public static List<string> Pairs(string path)
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, CreateIfMissing = false });
        return [.. store.EnumeratePrefix([]).Select(p => $"{Convert.ToHexStringLower(p.Key)}={Convert.ToHexStringLower(p.Value)}")];
    }

    /// <summary>The value of the line <c>NAME: VALUE</c> that <c>verify</c> prints.</summary>
    public static string Field(ToolResult verify, string name) =>
        verify.Lines.Single(l => l.StartsWith(name + ": ", StringComparison.Ordinal))[(name.Length + 2)..];

    /// <summary>The checksum a summary line (export, import, migrate) names.</summary>
    public static string SummaryChecksum(string summary) => ChecksumPattern().Match(summary) is { Success: true } match
        ? match.Groups[1].Value
        : throw new Xunit.Sdk.XunitException($"no checksum in '{summary}'");

    /// <summary>Runs <c>verify</c> on <paramref name="path"/>, asserts the store is healthy, and returns its checksum.</summary>
    public static string VerifiedChecksum(string workingDirectory, string path, long pairs)
    {
        var verify = DatastoreTool.Run(workingDirectory, ["verify", "--store", path]);
        Assert.True(verify.ExitCode == 0, $"verify exited {verify.ExitCode}: {verify.Text} {verify.Error}");
        Assert.Equal(pairs.ToString(System.Globalization.CultureInfo.InvariantCulture), Field(verify, "pairs"));
        Assert.DoesNotContain(verify.Lines, l => l.StartsWith("problem:", StringComparison.Ordinal));
        return Field(verify, "checksum");
    }

    [GeneratedRegex("checksum ([0-9a-f]{16,})")]
    private static partial Regex ChecksumPattern();
}
