using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// What the change feed costs a write (ADR 0020): a Put, a 1,000-key batch, a Delete and a DeletePrefix (of keys an
/// iteration setup wrote, 1,000 per iteration) on a store of each backend with a change feed
/// (<c>--backends</c> picks them; RocksDb and LiteDb through this process as their owner) created with the feed off, on,
/// and on with a subscriber in this process receiving every event. Relaxed durability, 9-byte keys, 128-byte values.
/// No job of its own: run it with <c>--inProcess --iterationCount 3 --warmupCount 1</c> (docs/benchmarks/change-feed.md).
/// </summary>
[MemoryDiagnoser]
public class ChangeFeedBenchmarks
{
    private const int BatchSize = 1000;

    /// <summary>Where the keys the delete cases remove start: apart from the Put cases' keys.</summary>
    private const long DeleteKeys = 1L << 40;
    private byte[] _pool = [];
    private string _directory = "";
    private IKeyValueStore _store = null!;
    private CancellationTokenSource? _stop;
    private Task? _subscriber;
    private long _next;

    /// <summary>The backends with a change feed (and selected by <c>--backends</c>).</summary>
    public static IEnumerable<StoreBackend> Backends =>
        new[] { StoreBackend.Sqlite, StoreBackend.Lmdb, StoreBackend.RocksDb, StoreBackend.LiteDb, StoreBackend.FileSystem }.Where(KeyValueStore.IsAvailable).Where(b => BenchmarkCommandLine.Selects(b.ToString()));

    /// <summary>The backend under test.</summary>
    [ParamsSource(nameof(Backends))]
    public StoreBackend Backend { get; set; } = StoreBackend.Sqlite;

    /// <summary>Off, On (nobody watching), or Watched (a subscriber of every key in this process).</summary>
    [Params("Off", "On", "Watched")]
    public string Feed { get; set; } = "Off";

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(15);
        _directory = BenchmarkData.NewDirectory();
        _store = KeyValueStore.Open(new DataStoreOptions { Path = _directory, Backend = Backend, ChangeFeed = Feed != "Off" });
        if (Feed == "Watched")
        {
            _stop = new CancellationTokenSource();
            _subscriber = Task.Run(async () =>
            {
                try
                {
                    await foreach (var _ in _store.Watch([], cancellationToken: _stop.Token))
                    {
                    }
                }
                catch (OperationCanceledException)
                {
                }
            });
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _stop?.Cancel();
        _subscriber?.GetAwaiter().GetResult();
        _stop?.Dispose();
        _store.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark]
    public void Put()
    {
        var id = _next++;
        _store.Put(BenchmarkData.Key(id), _pool.AsSpan((int)(id % 30_000) * BenchmarkData.ValueSize, BenchmarkData.ValueSize));
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public void Batch1000()
    {
        var batch = new WriteBatch();
        for (var i = 0; i < BatchSize; i++)
        {
            var id = _next++;
            batch.Put(BenchmarkData.Key(id), _pool.AsSpan((int)(id % 30_000) * BenchmarkData.ValueSize, BenchmarkData.ValueSize));
        }

        _store.Write(batch);
    }

    /// <summary>Writes the 1,000 keys the next iteration of a delete case removes (one batch, outside the measurement).</summary>
    [IterationSetup(Targets = [nameof(Delete), nameof(DeletePrefix)])]
    public void WriteKeysToDelete()
    {
        var batch = new WriteBatch();
        for (var i = 0; i < BatchSize; i++)
        {
            batch.Put(BenchmarkData.Key(DeleteKeys + i), _pool.AsSpan(i * BenchmarkData.ValueSize, BenchmarkData.ValueSize));
        }

        _store.Write(batch);
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public void Delete()
    {
        for (var i = 0; i < BatchSize; i++)
        {
            _store.Delete(BenchmarkData.Key(DeleteKeys + i));
        }
    }

    /// <summary>A DeletePrefix naming one whole key: its record is a range, and without the feed it is a journaled commit.</summary>
    [Benchmark(OperationsPerInvoke = BatchSize)]
    public void DeletePrefix()
    {
        for (var i = 0; i < BatchSize; i++)
        {
            _store.DeletePrefix(BenchmarkData.Key(DeleteKeys + i));
        }
    }
}
