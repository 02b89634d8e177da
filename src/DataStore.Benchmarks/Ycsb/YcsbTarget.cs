using DataStore.Benchmarks.Peers;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// One YCSB target as a benchmark parameter: a backend through DataStore, that engine's hand-written peer, or another
/// .NET engine a user compares us with (ZoneTree, FASTER).
/// </summary>
/// <param name="Name">The label in result tables: the backend's name, the backend's name and <c>Peer</c>, or the engine's name.</param>
/// <param name="Open">Opens the target in a new, empty directory.</param>
/// <param name="OrderedScans">False when the target has no ordered scan (workload E does not run on it).</param>
public sealed record YcsbTarget(string Name, Func<string, IYcsbTarget> Open, bool OrderedScans = true)
{
    /// <summary>The other .NET engines in the comparison, selected like backends (<c>--backends Lmdb,ZoneTree</c>).</summary>
    public static IReadOnlyList<string> OtherEngines { get; } = ["ZoneTree", "Faster"];

    /// <summary>Every writable backend this build includes (<see cref="BackendCase.All"/>), each one's peer, and the other engines, narrowed by <c>--backends</c>.</summary>
    public static IEnumerable<YcsbTarget> All
    {
        get
        {
            var backends = BackendCase.All.Select(c => c.Backend).ToArray();
            foreach (var backend in backends)
            {
                yield return new YcsbTarget(backend.ToString(), directory => new DataStoreYcsbTarget(backend, directory));
            }

            foreach (var backend in backends)
            {
                if (Peer(backend) is { } open)
                {
                    yield return new YcsbTarget(backend + "Peer", open);
                }
            }

            if (BenchmarkCommandLine.Selects(OtherEngines[0]))
            {
                yield return new YcsbTarget(OtherEngines[0], directory => new ZoneTreePeer(directory));
            }

            if (BenchmarkCommandLine.Selects(OtherEngines[1]))
            {
                yield return new YcsbTarget(OtherEngines[1], directory => new FasterPeer(directory), OrderedScans: false);
            }
        }
    }

    private static Func<string, IYcsbTarget>? Peer(StoreBackend backend) => backend switch
    {
        StoreBackend.Sqlite => directory => new SqlitePeer(directory),
        StoreBackend.RocksDb => directory => new RocksDbPeer(directory),
        StoreBackend.Lmdb => directory => new LmdbPeer(directory),
        StoreBackend.LiteDb => directory => new LiteDbPeer(directory),
        _ => null, // FileSystem: FileSystemBaselineBenchmarks is its hand-made floor; InMemory has no engine
    };

    public override string ToString() => Name;
}
