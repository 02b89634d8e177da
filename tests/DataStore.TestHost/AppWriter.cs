using System.Globalization;
using System.Text;
using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The <c>app-writes pause-ms timeout-s</c> command: the mod manager's UI as a user would run it beside the tool. It
/// opens the store with a short <see cref="DataStoreOptions.Timeout"/> and puts <c>app/i</c> = i every
/// <c>pause-ms</c>, printing <c>ACK i</c> after each put and <c>FAIL i: message</c> for one that threw, and goes on
/// either way until killed.
/// </summary>
internal static class AppWriter
{
    public static int Run(string[] args)
    {
        var options = new DataStoreOptions
        {
            Path = args[1],
            Backend = args[2] == "-" ? null : Enum.Parse<StoreBackend>(args[2]),
            Timeout = TimeSpan.FromSeconds(double.Parse(args[5], CultureInfo.InvariantCulture)),
        };
        var pause = int.Parse(args[4], CultureInfo.InvariantCulture);
        using var store = KeyValueStore.Open(options);
        for (var i = 1; ; i++)
        {
            try
            {
                store.Put(Encoding.UTF8.GetBytes($"app/{i:D8}"), BitConverter.GetBytes(i));
                Console.WriteLine($"ACK {i}");
            }
            catch (DataStoreException error)
            {
                Console.WriteLine($"FAIL {i}: {error.GetType().Name}: {error.Message.ReplaceLineEndings(" ")}");
            }

            Thread.Sleep(pause);
        }
    }
}
