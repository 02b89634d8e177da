using System.Text;

namespace DataStore.TestHost;

/// <summary>
/// Deletes for counting and for crash tests of the FileSystem change feed's delete path (docs/benchmarks/change-feed.md,
/// FileSystemChangeLogTests): a loop of single deletes, prefix deletes or range deletes, and a delete stopped at a step.
/// </summary>
internal static class FeedDeleteCommands
{
    /// <summary>Creates the store with the change feed on (<c>feed-create</c>), so a later command's writes are logged.</summary>
    public static int Create(DataStoreOptions options)
    {
        options.ChangeFeed = true;
        KeyValueStore.Open(options).Dispose();
        return 0;
    }

    /// <summary>Removes <c>tag/1</c>..<c>tag/count</c> (as <c>put-loop</c> wrote them) one call each: <c>delete</c>, <c>prefix</c> or <c>range</c>.</summary>
    public static int DeleteLoop(IKeyValueStore store, string tag, int count, string kind)
    {
        for (var i = 1; i <= count; i++)
        {
            Remove(store, kind, Commands.Key(tag, i), Commands.Key(tag, i + 1));
        }

        Console.WriteLine($"DELETED {count}");
        return 0;
    }

    /// <summary>
    /// Puts <c>p/1</c>..<c>p/count</c> and <c>q/1</c>..<c>q/4</c>, deletes <c>p/1</c>..<c>p/count-1</c> (one <paramref name="kind"/>
    /// call each), printing <c>ACK</c> after each call, then starts removing <c>p/count</c> (<c>delete</c>, <c>prefix</c>) or the
    /// whole <c>q/</c> group (<c>range</c>) and stops it at <paramref name="step"/> of the FileSystem logged delete, printing
    /// <c>STOPPED</c> and waiting to be killed.
    /// </summary>
    public static int DeleteStoppedAt(IKeyValueStore store, int step, int count, string kind)
    {
        for (var i = 1; i <= count; i++)
        {
            store.Put(Key("p", i), BitConverter.GetBytes(i));
            Console.WriteLine($"ACK put {i}");
        }

        for (var i = 1; i <= 4; i++)
        {
            store.Put(Key("q", i), BitConverter.GetBytes(i));
            Console.WriteLine($"ACK put q{i}");
        }

        for (var i = 1; i < count; i++)
        {
            Remove(store, kind, Key("p", i), Key("p", i + 1));
            Console.WriteLine($"ACK delete {i}");
        }

        DataStore.FileSystem.TreeWriter.LoggedDeleteStepForTests = reached =>
        {
            if (reached == step)
            {
                Console.WriteLine("STOPPED");
                Thread.Sleep(Timeout.Infinite);
            }
        };
        if (kind == "range")
        {
            store.DeleteRange("q/"u8, "q0"u8);
        }
        else
        {
            Remove(store, kind, Key("p", count), Key("p", count + 1));
        }

        Console.WriteLine("NOT STOPPED");
        return 1;
    }

    /// <summary>The tests' keys: <c>tag/i</c> in decimal, four digits, so prefix deletes remove exactly one key.</summary>
    public static byte[] Key(string tag, int i) => Encoding.UTF8.GetBytes($"{tag}/{i:D4}");

    private static void Remove(IKeyValueStore store, string kind, byte[] key, byte[] next)
    {
        switch (kind)
        {
            case "delete":
                store.Delete(key);
                break;
            case "prefix":
                store.DeletePrefix(key);
                break;
            default:
                store.DeleteRange(key, next);
                break;
        }
    }
}
