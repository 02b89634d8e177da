using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using LiteDB.Engine;

namespace DataStore.LiteDb;

/// <summary>
/// Waits until LiteDB's log writer has written every committed page to the log file. LiteDB 5 returns from a
/// commit with the pages only queued for its writer thread, so a process killed right after would lose an
/// acknowledged write; the store waits here before acknowledging. LiteDB has no public way to wait, so this
/// reaches its internal queue (<c>LiteEngine._disk.Queue.Value</c>) once, at open; the package version is pinned.
/// </summary>
internal sealed class LiteDbWriterQueue
{
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(200);

    private readonly ManualResetEventSlim _empty;
    private readonly object _queue;
    private readonly FieldInfo _failure;
    private readonly FieldInfo _writer;

    private LiteDbWriterQueue(ManualResetEventSlim empty, object queue, FieldInfo failure, FieldInfo writer)
    {
        _empty = empty;
        _queue = queue;
        _failure = failure;
        _writer = writer;
    }

    /// <summary>Finds the queue of <paramref name="engine"/>; throws <see cref="MissingMemberException"/> when this LiteDB build differs.</summary>
    /// <remarks>The DynamicDependency attributes keep the reflected members in trimmed and native AOT applications.</remarks>
    [DynamicDependency(DynamicallyAccessedMemberTypes.NonPublicFields, typeof(LiteEngine))]
    [DynamicDependency(DynamicallyAccessedMemberTypes.NonPublicProperties | DynamicallyAccessedMemberTypes.PublicProperties, "LiteDB.Engine.DiskService", "LiteDB")]
    [DynamicDependency(DynamicallyAccessedMemberTypes.NonPublicFields | DynamicallyAccessedMemberTypes.PublicFields, "LiteDB.Engine.DiskWriterQueue", "LiteDB")]
    [DynamicDependency(DynamicallyAccessedMemberTypes.PublicProperties, typeof(Lazy<>))]
    [UnconditionalSuppressMessage("Trimming", "IL2075", Justification = "The members reached by name are kept by the DynamicDependency attributes above; Lazy<T>.Value is kept by the one on Lazy<>.")]
    public static LiteDbWriterQueue Of(LiteEngine engine)
    {
        const BindingFlags Instance = BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public;
        var disk = typeof(LiteEngine).GetField("_disk", Instance)?.GetValue(engine) ?? throw Missing("LiteEngine._disk");
        var lazy = disk.GetType().GetProperty("Queue", Instance)?.GetValue(disk) ?? throw Missing("DiskService.Queue");
        var queue = lazy.GetType().GetProperty("Value")?.GetValue(lazy) ?? throw Missing("Lazy<DiskWriterQueue>.Value");
        var empty = queue.GetType().GetField("_queueIsEmpty", Instance)?.GetValue(queue) as ManualResetEventSlim ?? throw Missing("DiskWriterQueue._queueIsEmpty");
        var failure = queue.GetType().GetField("_exception", Instance) ?? throw Missing("DiskWriterQueue._exception");
        var writer = queue.GetType().GetField("_task", Instance) ?? throw Missing("DiskWriterQueue._task");
        return new LiteDbWriterQueue(empty, queue, failure, writer);
    }

    /// <summary>
    /// True once the log writer has stopped on a failure (a full disk, a file size limit), or when pages wait for a writer
    /// the runtime could not start (LiteDB starts it at the engine's first write): nothing will ever empty the queue. Ask
    /// under the store's write lock, between commits (a commit starts the writer just after queuing its first page).
    /// </summary>
    public bool Failed => _failure.GetValue(_queue) is Exception || NeverStarted;

    private bool NeverStarted => !_empty.IsSet && _writer.GetValue(_queue) is null;

    /// <summary>Returns once the queue is empty; throws the writer's failure if it stopped or never started.</summary>
    public void Wait()
    {
        while (!_empty.Wait(Poll))
        {
            ThrowIfFailed();
        }

        ThrowIfFailed();
    }

    private void ThrowIfFailed()
    {
        if (_failure.GetValue(_queue) is Exception failure)
        {
            throw new IOException($"LiteDB's log writer failed: {failure.Message}", failure);
        }

        if (NeverStarted)
        {
            throw new IOException("LiteDB's log writer did not start (the runtime could not start its thread)");
        }
    }

    private static MissingMemberException Missing(string member) =>
        new($"LiteDB {typeof(LiteEngine).Assembly.GetName().Version} lacks {member}; the LiteDb backend is built for LiteDB 5.0.20.");
}
