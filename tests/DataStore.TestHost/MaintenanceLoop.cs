using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The <c>maintenance-loop operation target</c> command: runs compact, backup (to <c>target-n</c>) or migrate (to
/// <c>target-n</c>, on another backend) again and again, printing <c>READY</c> once and <c>DONE n</c> after each
/// finished run, so the parent can kill it part-way through one.
/// </summary>
internal static class MaintenanceLoop
{
    public static int Run(IKeyValueStore store, string operation, string target)
    {
        Console.WriteLine("READY");
        for (var n = 1; ; n++)
        {
            var destination = $"{target}-{n}";
            switch (operation)
            {
                case "compact":
                    store.CompactAsync().GetAwaiter().GetResult();
                    break;
                case "backup":
                    store.BackupAsync(destination).GetAwaiter().GetResult();
                    break;
                case "migrate":
                    var backend = store.Backend == StoreBackend.Sqlite ? StoreBackend.Lmdb : StoreBackend.Sqlite;
                    store.MigrateAsync(new DataStoreOptions { Path = destination, Backend = backend }).GetAwaiter().GetResult();
                    break;
                default:
                    Console.Error.WriteLine($"unknown operation '{operation}'");
                    return 2;
            }

            Console.WriteLine($"DONE {n}");
        }
    }
}
