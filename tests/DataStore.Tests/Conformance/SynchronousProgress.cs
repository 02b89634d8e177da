namespace DataStore.Tests.Conformance;

/// <summary>An <see cref="IProgress{T}"/> that runs its action at once on the reporting thread (Progress&lt;T&gt; posts later), one report at a time.</summary>
public sealed class SynchronousProgress<T>(Action<T> report) : IProgress<T>
{
    private readonly Lock _gate = new();

    public void Report(T value)
    {
        lock (_gate)
        {
            report(value);
        }
    }
}
