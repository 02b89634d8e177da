using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// Group commit for durable single-key writes: each writer adds the directory its rename changed and waits; one
/// leader fsyncs every directory added before it began, so concurrent durable writers share the syncs.
/// </summary>
internal sealed class DirectorySyncGroup
{
    private readonly object _gate = new();
    private readonly HashSet<string> _pending = [];
    private long _requested;
    private long _synced;
    private bool _syncing;

    /// <summary>Returns once <paramref name="directory"/> has been fsynced after this call began.</summary>
    public void Sync(string directory)
    {
        lock (_gate)
        {
            _pending.Add(directory);
            var ticket = ++_requested;
            while (_synced < ticket)
            {
                if (_syncing)
                {
                    Monitor.Wait(_gate);
                    continue;
                }

                Lead();
            }
        }
    }

    // Called holding the gate; releases it while the fsyncs run so later writers queue behind them.
    private void Lead()
    {
        _syncing = true;
        var target = _requested;
        var directories = _pending.ToArray();
        _pending.Clear();
        try
        {
            Monitor.Exit(_gate);
            try
            {
                foreach (var directory in directories)
                {
                    DirectorySync.Sync(directory);
                }
            }
            finally
            {
                Monitor.Enter(_gate);
            }

            _synced = Math.Max(_synced, target);
        }
        catch
        {
            _pending.UnionWith(directories);
            throw;
        }
        finally
        {
            _syncing = false;
            Monitor.PulseAll(_gate);
        }
    }
}
