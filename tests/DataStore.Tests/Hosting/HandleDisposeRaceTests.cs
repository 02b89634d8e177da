using DataStore.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace DataStore.Tests.Hosting;

/// <summary>
/// A host stopping while a first resolution opens the store: whichever wins, no store stays open after the handle is
/// disposed (the open lock is free), and a resolution after the dispose throws <see cref="ObjectDisposedException"/>.
/// </summary>
public sealed class HandleDisposeRaceTests : IDisposable
{
    private const int Rounds = 40;
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Dispose_racing_the_first_resolution_leaves_no_store_open()
    {
        var path = _directory.Sub("store");
        KeyValueStore.Open(new DataStoreOptions { Path = path }).Dispose();
        using var provider = new ServiceCollection().AddDataStore(o => o.Path = path).BuildServiceProvider();
        for (var round = 0; round < Rounds; round++)
        {
            var handle = new DataStoreHandle(Microsoft.Extensions.Options.Options.DefaultName, provider);
            using var start = new Barrier(2);
            var resolution = Task.Run(() =>
            {
                start.SignalAndWait(TestContext.Current.CancellationToken);
                try
                {
                    return handle.Store;
                }
                catch (ObjectDisposedException)
                {
                    return null;
                }
            });

            start.SignalAndWait(TestContext.Current.CancellationToken);
            if (round % 2 == 0)
            {
                handle.Dispose();
            }
            else
            {
                await handle.DisposeAsync();
            }

            var resolved = await resolution;
            if (resolved is not null)
            {
                Assert.Throws<ObjectDisposedException>(() => resolved.HaveKey("k"u8));
            }

            // A step that needs the store to itself runs: nothing holds the open lock.
            var configured = StoreConfiguration.ConfigureChangeFeed(path, enabled: false, wait: TimeSpan.FromMilliseconds(100));
            Assert.False(configured.Enabled, $"round {round}");
            Assert.Throws<ObjectDisposedException>(() => handle.Store);
        }
    }

    public void Dispose() => _directory.Dispose();
}
