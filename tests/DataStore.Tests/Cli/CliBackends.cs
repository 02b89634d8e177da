namespace DataStore.Tests.Cli;

/// <summary>The persistent backends this build can open: the CLI tests run against each one present.</summary>
public static class CliBackends
{
    // Packed is read-only, so the tool's write paths cannot run on it; Packed/PackedCliTests covers its commands.
    private static readonly StoreBackend[] Persistent = [.. Enum.GetValues<StoreBackend>().Where(b => b is not StoreBackend.InMemory and not StoreBackend.Packed)];

    public static TheoryData<StoreBackend> Available => [.. Persistent.Where(KeyValueStore.IsAvailable)];

    /// <summary>Each available backend with another persistent backend (the next in the enum, available or not).</summary>
    public static TheoryData<StoreBackend, StoreBackend> AvailableWithAnother
    {
        get
        {
            var data = new TheoryData<StoreBackend, StoreBackend>();
            foreach (var backend in Persistent.Where(KeyValueStore.IsAvailable))
            {
                data.Add(backend, Persistent[(Array.IndexOf(Persistent, backend) + 1) % Persistent.Length]);
            }

            return data;
        }
    }

    /// <summary>Every ordered pair of two different available persistent backends.</summary>
    public static TheoryData<StoreBackend, StoreBackend> OrderedPairs
    {
        get
        {
            var data = new TheoryData<StoreBackend, StoreBackend>();
            var available = Persistent.Where(KeyValueStore.IsAvailable).ToArray();
            foreach (var from in available)
            {
                foreach (var to in available.Where(b => b != from))
                {
                    data.Add(from, to);
                }
            }

            return data;
        }
    }

    /// <summary>Creates a store of <paramref name="backend"/> at <paramref name="path"/> holding <paramref name="pairs"/> (in this process, then closed).</summary>
    public static void CreateStore(string path, StoreBackend backend, params (string Key, string Value)[] pairs) =>
        CreateStore(path, backend, pairs.Select(p => (System.Text.Encoding.UTF8.GetBytes(p.Key), System.Text.Encoding.UTF8.GetBytes(p.Value))));

    /// <summary>Creates a store of <paramref name="backend"/> at <paramref name="path"/> holding binary <paramref name="pairs"/>.</summary>
    public static void CreateStore(string path, StoreBackend backend, IEnumerable<(byte[] Key, byte[] Value)> pairs)
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = backend });
        var batch = new WriteBatch();
        foreach (var (key, value) in pairs)
        {
            batch.Put(key, value);
        }

        store.Write(batch);
    }
}
