using Microsoft.Extensions.Logging;
using Microsoft.Win32.SafeHandles;

namespace DataStore.ChangeFeed;

/// <summary>
/// The writer's half of the wake-up: after each commit, one byte written to <c>changefeed/signal</c> in the store directory,
/// which the operating system reports to every subscriber's watcher (inotify on Linux, ReadDirectoryChangesW on Windows).
/// </summary>
internal sealed class ChangeSignal : IDisposable
{
    /// <summary>The folder, inside the store directory, that holds only the signal file, so watchers see no other file's writes.</summary>
    public const string Folder = "changefeed";

    /// <summary>The signal file's name inside <see cref="Folder"/>.</summary>
    public const string FileName = "signal";

    private static readonly byte[] Byte = [1];
    private readonly SafeFileHandle _file;
    private readonly string _directory;
    private readonly ILogger _logger;

    public ChangeSignal(string directory, ILogger logger)
    {
        _directory = directory;
        _logger = logger;
        _file = File.OpenHandle(PathIn(directory), FileMode.OpenOrCreate, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete);
    }

    /// <summary>The signal file of the store in <paramref name="directory"/>, its folder created if missing.</summary>
    public static string PathIn(string directory)
    {
        var folder = System.IO.Path.Combine(directory, Folder);
        System.IO.Directory.CreateDirectory(folder);
        return System.IO.Path.Combine(folder, FileName);
    }

    /// <summary>Wakes the subscribers; a failure is logged, not thrown (the commit is done; subscribers catch up at their safety poll).</summary>
    public void Notify()
    {
        try
        {
            RandomAccess.Write(_file, Byte, 0);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            ChangeFeedLog.SignalFailed(_logger, e, _directory);
        }
    }

    public void Dispose() => _file.Dispose();
}
