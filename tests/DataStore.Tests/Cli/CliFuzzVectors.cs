namespace DataStore.Tests.Cli;

/// <summary>One fuzzed run of the tool: its arguments and what it reads on stdin.</summary>
public sealed record CliFuzzVector(string[] Args, byte[] Stdin)
{
    public override string ToString() =>
        $"datastore {string.Join(' ', Args.Select(a => a.Length > 60 ? $"'{a[..20]}..({a.Length} chars)'" : $"'{a}'"))} <{Stdin.Length} bytes on stdin>";
}

/// <summary>
/// Argument vectors for <see cref="CliFuzzTests"/>: a fixed list of hostile command lines first, then seeded random
/// ones built from every command, every option (and unknown ones), with valid, missing and hostile values (huge and
/// negative numbers, odd hex, bad base64, very long paths, files that are not stores or dumps) and stdin garbage.
/// Every path is relative to the run's working directory, so nothing can reach outside it.
/// </summary>
public sealed class CliFuzzVectors(Random random, byte[] goodDump)
{
    public static readonly string[] Commands =
        ["get", "put", "has", "delete", "scan", "count", "info", "export", "import", "migrate", "backup", "verify", "compact", "watch", "pack", "config"];

    private static readonly string[] Options =
    [
        "--store", "-s", "--backend", "-b", "--config", "--timeout", "--hex", "--base64", "--verbose", "-v", "--quiet", "-q", "--json",
        "--prefix", "-p", "--from", "--to", "--keys-only", "-k", "--limit", "-n", "--file", "-f", "--keep-partial", "--to-backend",
        "--from-dump", "--verify-child", "--help", "--version", "--frobnicate", "--", "-", "-x", "---", "--store=store", "-sstore",
    ];

    private static readonly string[] Values =
    [
        "0", "-1", "1", "99999999999999999999", "-9223372036854775809", "1e308", "1e400", "NaN", "Infinity", "-0", "0x10", "١٢", " ",
        "", "abc", "0g", "00", "ff", "%%", "AA==", "A===", "\u00e9", "😀", "\t", "\\", "../../etc/passwd", "..", ".", "Sqlite", "sqlite",
        "RocksDb", "Lmdb", "FileSystem", "LiteDb", "Packed", "InMemory", "42", "store", "missing", "garbage.bin", "good.dump",
        "cfg-nul.json", "cfg-bad.json", "cfg-feed.json", new string('p', 300), string.Join('/', Enumerable.Repeat(new string('q', 200), 25)),
    ];

    /// <summary>Chosen command lines that once were, or could be, trouble.</summary>
    public static IReadOnlyList<CliFuzzVector> Hostile(byte[] goodDump) =>
    [
        new(["get", "--store", "store", "--hex", "abc"], []),
        new(["import", "-", "--store", "imported", "--backend", "Sqlite"], [.. goodDump.AsSpan(0, goodDump.Length / 2)]),
        new(["import", "-", "--store", "imported-garbage", "--backend", "Lmdb"], [0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x01]),
        new(["put", "--store", "store", "k"], new byte[70_000]),
        new(["scan", "--store", "store", "--limit", "99999999999999999999"], []),
        new(["scan", "--store", "store", "--limit", "-5", "--from", "b", "--to", "a"], []),
        new(["scan", "--store", "store", "--from", "b", "--to", "a"], []),
        new(["--timeout", "1e400", "count", "--store", "store"], []),
        new(["put", "--config", "cfg-nul.json", "--backend", "Sqlite", "k", "v"], []),
        new(["backup", new string('n', 300), "--store", "store"], []),
        new(["get", "--store", string.Join('/', Enumerable.Repeat(new string('q', 200), 25)), "k"], []),
        new(["watch", "--store", "store", "--from", "99999999999999999999"], []),
    ];

    /// <summary>A random command line: usually a command with a store, then options and arguments, some of them mutated.</summary>
    public CliFuzzVector Next()
    {
        var args = new List<string>();
        if (random.Next(10) > 0)
        {
            args.Add(Commands[random.Next(Commands.Length)]);
        }

        if (random.Next(4) > 0)
        {
            args.AddRange(["--store", random.Next(3) > 0 ? "store" : Value()]);
        }

        for (var i = random.Next(0, 6); i > 0; i--)
        {
            switch (random.Next(4))
            {
                case 0:
                    args.Add(Value()); // a positional argument
                    break;
                case 1:
                    args.Add(Options[random.Next(Options.Length)]); // an option, perhaps missing its value
                    break;
                default:
                    args.AddRange([Options[random.Next(Options.Length)], Value()]);
                    break;
            }
        }

        Mutate(args);
        return new([.. args], Stdin());
    }

    private void Mutate(List<string> args)
    {
        if (args.Count > 1 && random.Next(4) == 0)
        {
            var (i, j) = (random.Next(args.Count), random.Next(args.Count));
            (args[i], args[j]) = (args[j], args[i]);
        }

        if (args.Count > 0 && random.Next(6) == 0)
        {
            args.Insert(random.Next(args.Count + 1), args[random.Next(args.Count)]); // a repeated word
        }
    }

    private string Value() => Values[random.Next(Values.Length)];

    private byte[] Stdin()
    {
        switch (random.Next(4))
        {
            case 0:
                return [];
            case 1:
                var garbage = new byte[random.Next(1, 4096)];
                random.NextBytes(garbage);
                return garbage;
            case 2:
                return goodDump[..random.Next(goodDump.Length + 1)]; // a dump cut anywhere
            default:
                var flipped = goodDump.ToArray();
                flipped[random.Next(flipped.Length)] ^= (byte)(1 << random.Next(8));
                return flipped;
        }
    }
}
