using System.Diagnostics;
using System.Diagnostics.Metrics;
using DataStore.Backup;

namespace DataStore.Diagnostics;

/// <summary>
/// The measurements of the <c>datastore.size</c> gauge: the size of each open store's files, tagged <c>backend</c> and
/// <c>path</c>. A size is measured again only when the last measurement is older than <see cref="MaxAge"/>, however
/// often a collector asks.
/// </summary>
/// <remarks>
/// FileSystem stores are left out: they keep a file per key, so measuring one costs as much as a keys-only scan. A
/// disposed store drops out at the next observation; a measurement holds the store open (as a call does), so
/// <c>Dispose</c> waits for it rather than racing it.
/// </remarks>
internal sealed class StoreSizes
{
    public static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(5);

    private readonly List<Tracked> _stores = [];
    private int _pruneAt = 16;

    /// <summary>How many stores are tracked, open or not yet found closed.</summary>
    public int Count
    {
        get
        {
            lock (_stores)
            {
                return _stores.Count;
            }
        }
    }

    public void Add(IMeasuredStore store)
    {
        if (store.Backend is StoreBackend.InMemory or StoreBackend.FileSystem || string.IsNullOrEmpty(store.Path))
        {
            return;
        }

        lock (_stores)
        {
            // Without a collector nothing observes: closed stores are dropped here, so the list stays as long as the open ones.
            if (_stores.Count >= _pruneAt)
            {
                _stores.RemoveAll(tracked => !tracked.IsOpen());
                _pruneAt = Math.Max(16, _stores.Count * 2);
            }

            _stores.Add(new Tracked(new WeakReference<IMeasuredStore>(store), store.Backend.ToString(), store.Path));
        }
    }

    /// <summary>One measurement per open store; called by the meter's collector, on its thread.</summary>
    public IEnumerable<Measurement<long>> Observe()
    {
        var measurements = new List<Measurement<long>>();
        lock (_stores)
        {
            _stores.RemoveAll(tracked => !tracked.TryMeasure());
            foreach (var tracked in _stores)
            {
                measurements.Add(new Measurement<long>(tracked.Bytes, new("backend", tracked.Backend), new("path", tracked.Path)));
            }
        }

        return measurements;
    }

    private sealed class Tracked(WeakReference<IMeasuredStore> store, string backend, string path)
    {
        private long _measuredAt;

        public string Backend => backend;

        public string Path => path;

        public long Bytes { get; private set; }

        public bool IsOpen()
        {
            if (!store.TryGetTarget(out var target) || !target.TryEnterCall())
            {
                return false;
            }

            target.ExitCall();
            return true;
        }

        /// <summary>Measures the store again when its last size is stale; false once the store is gone.</summary>
        public bool TryMeasure()
        {
            if (!store.TryGetTarget(out var target) || !target.TryEnterCall())
            {
                return false;
            }

            try
            {
                if (_measuredAt == 0 || Stopwatch.GetElapsedTime(_measuredAt) >= MaxAge)
                {
                    Bytes = DirectorySize.Of(path);
                    _measuredAt = Stopwatch.GetTimestamp();
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Reported again with the last size; the next observation tries once more.
            }
            finally
            {
                target.ExitCall();
            }

            return true;
        }
    }
}
