using System.Buffers.Binary;
using System.Text;
using DataStore;
using DataStore.Platform;
using DataStore.Sharing;

namespace DataStore.TestHost;

/// <summary>Commands for the owner-process (broker) tests.</summary>
internal static class SharingCommands
{
    /// <summary>Takes the owner lock of the store and serves nothing (as a process of an older DataStore would), printing <c>LOCKED</c>.</summary>
    public static int HoldOwnerLock(string storePath, int milliseconds)
    {
        Directory.CreateDirectory(storePath);
        using var ownerLock = FileLock.Open(Path.Combine(storePath, OwnerRole.LockFileName));
        if (!ownerLock.TryEnter(exclusive: true))
        {
            Console.WriteLine("BUSY");
            return 1;
        }

        Console.WriteLine("LOCKED");
        Thread.Sleep(milliseconds);
        return 0;
    }

    /// <summary>
    /// Puts <c>{tag}/{i}</c> = i for i = 1..count, printing <c>ACK i</c> after each put returns and <c>UNKNOWN i</c>
    /// when the owner died before answering it; goes on through hand-overs and prints its final role. Sleeps
    /// <paramref name="pauseMilliseconds"/> after each put, so a test can kill the owner mid-traffic.
    /// </summary>
    public static int WriteThroughHandOvers(IKeyValueStore store, string tag, int count, int pauseMilliseconds)
    {
        Console.WriteLine($"ROLE {store.Sharing.Role} {store.Sharing.OwnerProcessId}");
        for (var i = 1; i <= count; i++)
        {
            var key = Encoding.UTF8.GetBytes($"{tag}/").Concat(Number(i)).ToArray();
            try
            {
                store.Put(key, Number(i));
                Console.WriteLine($"ACK {i}");
            }
            catch (OutcomeUnknownException)
            {
                Console.WriteLine($"UNKNOWN {i}");
            }

            Thread.Sleep(pauseMilliseconds);
        }

        Console.WriteLine($"DONE {store.Sharing.Role} {store.Sharing.OwnerProcessId}");
        return 0;
    }

    private static byte[] Number(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, value);
        return bytes;
    }
}
