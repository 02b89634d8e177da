using System.Diagnostics.Metrics;
using System.Runtime.ExceptionServices;
using DataStore.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace DataStore.Configuration;

/// <summary>One registered store: opens it once (at host start, or on first resolution) and owns it.</summary>
/// <remarks>
/// A failed open is not remembered: the next resolution tries again, so an app without a host can retry once the process
/// holding the store lets it go (and a health check reports the store's error each time instead of a stale one).
/// </remarks>
internal sealed class DataStoreHandle(string name, IServiceProvider provider) : IAsyncDisposable, IDisposable
{
    // Guards the open and the dispose together: a dispose waits for an open under way and closes what it opened, and no
    // resolution opens the store once the handle is disposed.
    private readonly Lock _gate = new();
    private IKeyValueStore? _store;
    private bool _disposed;

    /// <summary>The registration's name; empty for the unkeyed store.</summary>
    public string Name => name;

    /// <summary>The open store; opens it on first use.</summary>
    /// <exception cref="ObjectDisposedException">The handle is disposed (the host stopped or the container was disposed).</exception>
    public IKeyValueStore Store
    {
        get
        {
            if (Volatile.Read(ref _store) is { } store)
            {
                return store;
            }

            lock (_gate)
            {
                ObjectDisposedException.ThrowIf(_disposed, this);
                return _store ??= Open(name, provider);
            }
        }
    }

    public void Dispose() => TakeStore()?.Dispose();

    public ValueTask DisposeAsync() => TakeStore()?.DisposeAsync() ?? ValueTask.CompletedTask;

    // Marks the handle disposed, once an open under way has finished, and hands over the store to close (null when none is open).
    private IKeyValueStore? TakeStore()
    {
        lock (_gate)
        {
            _disposed = true;
            var store = _store;
            Volatile.Write(ref _store, null);
            return store;
        }
    }

    private static IKeyValueStore Open(string name, IServiceProvider provider)
    {
        // Every registered store's options first, all of them reported as the host's own ValidateOnStart does (one store's
        // OptionsValidationException, or an AggregateException of them): a bad setting of any store fails before this one creates files.
        var monitor = provider.GetRequiredService<IOptionsMonitor<DataStoreOptions>>();
        var failures = new List<OptionsValidationException>();
        foreach (var registration in provider.GetServices<DataStoreRegistration>().Select(registration => registration.Name).Distinct())
        {
            try
            {
                _ = monitor.Get(registration);
            }
            catch (OptionsValidationException e)
            {
                failures.Add(e);
            }
        }

        if (failures.Count == 1)
        {
            ExceptionDispatchInfo.Throw(failures[0]);
        }

        if (failures.Count > 1)
        {
            throw new AggregateException(failures);
        }

        var loggerFactory = provider.GetService<ILoggerFactory>();
        try
        {
            return KeyValueStore.Open(monitor.Get(name), loggerFactory, provider.GetService<IMeterFactory>());
        }
        catch (DataStoreException e)
        {
            StoreLog.OpenFailed((loggerFactory ?? NullLoggerFactory.Instance).CreateLogger("DataStore"), e, e.StorePath);
            throw;
        }
    }
}
