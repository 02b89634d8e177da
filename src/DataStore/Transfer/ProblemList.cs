namespace DataStore.Transfer;

/// <summary>The problems a verification found, listing the first hundred and counting the rest.</summary>
internal sealed class ProblemList
{
    private const int Listed = 100;
    private readonly List<string> _problems = [];
    private long _unlisted;

    /// <summary>How many problems were found, listed or not.</summary>
    public long Count => _problems.Count + _unlisted;

    public void Add(string problem)
    {
        if (_problems.Count < Listed)
        {
            _problems.Add(problem);
        }
        else
        {
            _unlisted++;
        }
    }

    public IReadOnlyList<string> ToList() =>
        _unlisted == 0 ? [.. _problems] : [.. _problems, $"... and {_unlisted:N0} more problems of the same kinds."];
}
