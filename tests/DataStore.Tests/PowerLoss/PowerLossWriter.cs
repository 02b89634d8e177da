using System.Globalization;

namespace DataStore.Tests.PowerLoss;

/// <summary>Runs the writer child (<c>power-loss-writes</c>) on a fresh store under the power-loss shim and reads back its log.</summary>
public static class PowerLossWriter
{
    /// <summary>
    /// Writes to <c>store</c> under <paramref name="directory"/> for <paramref name="writeMs"/>; the shim's log and the
    /// child's marks go beside it. Fails the test when the child fails.
    /// </summary>
    public static List<LogRecord> Run(string library, string directory, StoreBackend backend, Durability durability, int seed, int writeMs, int syncMs, IEnumerable<string> more, string context)
    {
        var store = Path.Combine(directory, "store");
        var log = Path.Combine(directory, "log");
        var marks = Path.Combine(directory, "marks");
        Directory.CreateDirectory(store);
        string[] wrapper = ["env", $"LD_PRELOAD={library}", $"DATASTORE_POWERLOSS_ROOT={store}", $"DATASTORE_POWERLOSS_LOG={log}", $"DATASTORE_POWERLOSS_MARKS={marks}"];
        var (code, output) = ChildProcess.Run(
            ["power-loss-writes", store, backend.ToString(), durability.ToString(), marks, Text(seed), Text(writeMs), Text(syncMs), .. more],
            TimeSpan.FromMinutes(3), wrapper);
        Assert.True(code == 0, $"the writer failed ({context}), exit {code}: {output}");
        return PowerLossLog.Read(log);
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
