using System.Text;

namespace DataStore.TestHost;

/// <summary>
/// The commits the change-feed tests make, numbered from 1, in four shapes that repeat: a Put, a batch of two puts and a delete,
/// a Delete, a DeletePrefix. Linked into the test assembly, so a test knows what commit i changed without being told.
/// </summary>
internal static class FeedWorkload
{
    /// <summary>Every key the workload writes starts with this.</summary>
    public const string Prefix = "w/";

    /// <summary>Makes commit <paramref name="i"/>.</summary>
    public static void Commit(IKeyValueStore store, int i)
    {
        switch (i % 4)
        {
            case 1:
                store.Put(Key(i), Value(i));
                break;
            case 2:
                store.Write(new WriteBatch().Put(Key(i, "a"), Value(i)).Put(Key(i, "b"), Value(i)).Delete(Key(i - 1)));
                break;
            case 3:
                store.Delete(Key(i - 1, "a"));
                break;
            default:
                store.DeletePrefix(Utf8($"{Name(i - 2)}/"));
                break;
        }
    }

    /// <summary>What commit <paramref name="i"/> changed, as (kind, key, range end) in the commit's order.</summary>
    public static (KeyChangeKind Kind, string Key, string End)[] Changes(int i) => (i % 4) switch
    {
        1 => [(KeyChangeKind.Put, Name(i), "")],
        2 => [(KeyChangeKind.Put, $"{Name(i)}/a", ""), (KeyChangeKind.Put, $"{Name(i)}/b", ""), (KeyChangeKind.Delete, Name(i - 1), "")],
        3 => [(KeyChangeKind.Delete, $"{Name(i - 1)}/a", "")],
        _ => [(KeyChangeKind.DeleteRange, $"{Name(i - 2)}/", $"{Name(i - 2)}0")],
    };

    /// <summary>Applies commit <paramref name="i"/> to a model of the keys present.</summary>
    public static void Replay(SortedSet<string> keys, int i)
    {
        foreach (var (kind, key, end) in Changes(i))
        {
            switch (kind)
            {
                case KeyChangeKind.Put:
                    keys.Add(key);
                    break;
                case KeyChangeKind.Delete:
                    keys.Remove(key);
                    break;
                default:
                    keys.RemoveWhere(k => string.CompareOrdinal(k, key) >= 0 && string.CompareOrdinal(k, end) < 0);
                    break;
            }
        }
    }

    private static string Name(int i) => $"{Prefix}{i:D7}";

    private static byte[] Key(int i, string? part = null) => Utf8(part is null ? Name(i) : $"{Name(i)}/{part}");

    private static byte[] Value(int i) => BitConverter.GetBytes(i);

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);
}
