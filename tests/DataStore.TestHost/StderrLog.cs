using Microsoft.Extensions.Logging;

namespace DataStore.TestHost;

/// <summary>
/// Writes the library's log messages to standard error, one line each, when <c>DATASTORE_FILESYSTEM_TRACE_MS</c> is set
/// (the FileSystem backend then logs each slow Put's steps, which <c>filesystem-writer-stalls.sh</c> collects).
/// </summary>
internal sealed class StderrLog : ILoggerFactory, ILogger
{
    /// <summary>A factory when tracing is asked for, else null (the store logs nothing).</summary>
    public static ILoggerFactory? WhenTracing() =>
        Environment.GetEnvironmentVariable("DATASTORE_FILESYSTEM_TRACE_MS") is { Length: > 0 } ? new StderrLog() : null;

    public ILogger CreateLogger(string categoryName) => this;

    public void AddProvider(ILoggerProvider provider)
    {
    }

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Information;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        if (IsEnabled(logLevel))
        {
            Console.Error.WriteLine($"LOG {eventId.Id} {formatter(state, exception)}");
        }
    }

    public void Dispose()
    {
    }
}
