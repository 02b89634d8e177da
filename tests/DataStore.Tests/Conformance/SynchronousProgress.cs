namespace DataStore.Tests.Conformance;

/// <summary>An <see cref="IProgress{T}"/> that runs its action at once on the reporting thread (Progress&lt;T&gt; posts later).</summary>
public sealed class SynchronousProgress<T>(Action<T> report) : IProgress<T>
{
    public void Report(T value) => report(value);
}
