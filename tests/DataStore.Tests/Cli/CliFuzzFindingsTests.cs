namespace DataStore.Tests.Cli;

/// <summary>The defects the command-line fuzz (<see cref="CliFuzzTests"/>) found, each pinned by its own case.</summary>
public sealed class CliFuzzFindingsTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData("scan", "--limit", "99999999999999999999")]
    [InlineData("scan", "--limit", "-5")]
    [InlineData("watch", "--from", "99999999999999999999")]
    [InlineData("watch", "--from", "1.5")]
    public void A_number_option_out_of_range_is_a_usage_error_not_a_crash(string command, string option, string value)
    {
        // The number did not fit a long: the option's validator threw, the tool died with exit code 134.
        DatastoreTool.Run(_directory.Path, [command, "--store", _directory.Sub("store"), option, value])
            .AssertFailed(2, $"{option} '{value}' is not a whole number from 0 to 9223372036854775807");
    }

    public void Dispose() => _directory.Dispose();
}
