namespace DataStore.TestHost;

/// <summary><c>config-feed STORE on|off</c>: turns the store's change feed on or off, printing <c>CONFIGURING</c> first and <c>DONE</c> after (a test kills it in between).</summary>
internal static class FeedConfigCommand
{
    public static int Run(string path, string setting)
    {
        Console.WriteLine("CONFIGURING");
        var result = StoreConfiguration.ConfigureChangeFeed(path, setting == "on", wait: TimeSpan.FromSeconds(30));
        Console.WriteLine($"DONE {(result.Enabled ? "on" : "off")}");
        return 0;
    }
}
