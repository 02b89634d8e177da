using Microsoft.Extensions.Logging;

namespace DataStore.TestHost;

/// <summary>A logger for the power-loss writer that counts the FileSystem splits prepared beside the writes and published (event 82).</summary>
internal sealed class PreparedSplitCounter : ILogger
{
    private const int SplitPreparedEvent = 82;

    private int _published;

    public int Published => Volatile.Read(ref _published);

    public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Information;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        if (eventId.Id == SplitPreparedEvent)
        {
            Interlocked.Increment(ref _published);
        }
    }
}
