using Microsoft.Data.Sqlite;

namespace DataStore.TestHost;

/// <summary>Holds SQLite's write lock on a store from outside DataStore, as another program would.</summary>
internal static class SqliteWriteLock
{
    public static int Hold(string storePath, int milliseconds) => Hold(storePath, () => Thread.Sleep(milliseconds));

    /// <summary>Takes the lock, prints <c>LOCKED</c>, runs <paramref name="whileHeld"/>, lets it go and prints <c>RELEASED</c>.</summary>
    public static int Hold(string storePath, Action whileHeld)
    {
        using var connection = new SqliteConnection($"Data Source={Path.Combine(storePath, "store.sqlite")};Pooling=False");
        connection.Open();
        using (var begin = connection.CreateCommand())
        {
            begin.CommandText = "BEGIN IMMEDIATE";
            begin.ExecuteNonQuery();
        }

        Console.WriteLine("LOCKED");
        whileHeld();
        using (var commit = connection.CreateCommand())
        {
            commit.CommandText = "COMMIT";
            commit.ExecuteNonQuery();
        }

        Console.WriteLine("RELEASED");
        return 0;
    }
}
