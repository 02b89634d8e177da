namespace DataStore.Tests.Transfer;

/// <summary>An <see cref="IProgress{T}"/> that runs its callback on the reporting thread, unlike <see cref="Progress{T}"/>.</summary>
internal sealed class SynchronousProgress(Action<StoreProgress> report) : IProgress<StoreProgress>
{
    public void Report(StoreProgress value)
    {
        lock (this)
        {
            report(value);
        }
    }
}
