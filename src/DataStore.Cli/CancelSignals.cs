using System.Runtime.InteropServices;

namespace DataStore.Cli;

/// <summary>
/// Turns the first Ctrl+C (SIGINT) or SIGTERM into a cancelled token, so a long command stops cleanly and removes its
/// partial output; a second signal ends the process as usual. The first signal is acknowledged on stderr at once, so
/// a user who pressed Ctrl+C knows the tool heard it while it removes what it had written.
/// </summary>
internal sealed class CancelSignals : IDisposable
{
    private readonly CancellationTokenSource _source = new();
    private readonly PosixSignalRegistration[] _registrations;
    private readonly TextWriter _stderr;

    public CancelSignals(TextWriter stderr)
    {
        _stderr = stderr;
        _registrations = [PosixSignalRegistration.Create(PosixSignal.SIGINT, Handle), PosixSignalRegistration.Create(PosixSignal.SIGTERM, Handle)];
    }

    /// <summary>Cancelled by the first signal.</summary>
    public CancellationToken Token => _source.Token;

    public void Dispose()
    {
        foreach (var registration in _registrations)
        {
            registration.Dispose();
        }

        _source.Dispose();
    }

    private void Handle(PosixSignalContext context)
    {
        if (_source.IsCancellationRequested)
        {
            return; // the second signal: let it end the process
        }

        context.Cancel = true;
        _stderr.WriteLine($"datastore: {context.Signal} received, cancelling (a second one ends the tool at once)...");
        _stderr.Flush();
        _source.Cancel();
    }
}
