using DataStore.Benchmarks.Peers;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>One YCSB target as a benchmark parameter: a backend through DataStore, or that engine's hand-written peer.</summary>
/// <param name="Name">The label in result tables: the backend's name, or the backend's name and <c>Peer</c>.</param>
/// <param name="Open">Opens the target in a new, empty directory.</param>
public sealed record YcsbTarget(string Name, Func<string, IYcsbTarget> Open)
{
    /// <summary>Every writable backend this build includes (<see cref="BackendCase.All"/>) and each one's peer, narrowed by <c>--backends</c>.</summary>
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
