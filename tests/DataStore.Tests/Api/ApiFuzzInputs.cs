using System.Text;

namespace DataStore.Tests.Api;

/// <summary>
/// The arguments the public-method fuzz draws from: a pool of ordinary and hostile keys (path-like, NUL bytes,
/// 0xFF runs, long keys up to just past the documented 1 MiB), values of every size class, prefixes and range
/// bounds made from them, and strings for the UTF-8 helpers (lone surrogates, NULs). Seeded: one seed, one sequence.
/// </summary>
internal sealed class ApiFuzzInputs
{
    private const int MiB = 1 << 20;

    private static readonly string[] PathLike =
    [
        "../../etc/passwd", "..", ".", "/", "//", "\\", "..\\..\\boot.ini", "C:\\x", "CON", "nul", "a/../../b", "./.", "~",
        "store/../../escape", "\0", "a\0b", "%2e%2e%2f", "datastore.json", "LOCK", "data.mdb", "journal", "*", "?", "|",
    ];

    private static readonly string[] Strings =
    [
        "", "a", "mods/skyui", "../../etc/passwd", "\0", "a\0b", "\uD800", "a\uDFFFb", "\uDBFF\uDFFF", "é", "e\u0301", "日本",
        "\U0001F600", "\uFFFF", "\uFEFF", new string('x', 600), "mods/", "mods/\uD83D",
    ];

    private readonly Random _random;
    private readonly List<byte[]> _keys = [];
    private readonly int _largeOneIn;

    public ApiFuzzInputs(Random random, int largeOneIn)
    {
        _random = random;
        _largeOneIn = largeOneIn;
        foreach (var text in PathLike)
        {
            _keys.Add(Encoding.UTF8.GetBytes(text));
        }

        _keys.AddRange([[0x00], [0x00, 0x00], [0xFF], [0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0x00], [0x7F], [0x80], [0xC3, 0x28], [0xED, 0xA0, 0x80]]);
        for (var i = 0; i < 12; i++)
        {
            _keys.Add(Encoding.UTF8.GetBytes($"mods/{i % 3}/{i}"));
        }

        foreach (var length in new[] { 255, 256, 511, 512, 1023, 1024, 4096 })
        {
            _keys.Add(Filled(length, (byte)('k' + (length % 7))));
        }
    }

    /// <summary>A key: usually one of the pool (so operations meet each other), sometimes new random bytes, rarely one near 1 MiB.</summary>
    public byte[] Key()
    {
        if (_random.Next(_largeOneIn) == 0)
        {
            var key = Filled(MiB + _random.Next(-2, 3), 0x4C);
            key[^1] = (byte)_random.Next(4); // a few distinct long keys, sharing a 1 MiB prefix
            return key;
        }

        return _random.Next(6) switch
        {
            0 => RandomBytes(_random.Next(1, 24)),
            1 => [.. _keys[_random.Next(_keys.Count)], (byte)_random.Next(256)],
            _ => _keys[_random.Next(_keys.Count)],
        };
    }

    /// <summary>A key argument that may be invalid: empty one time in twelve.</summary>
    public byte[] KeyArgument() => _random.Next(12) == 0 ? [] : Key();

    /// <summary>A value: empty, small, up to 64 KiB, or rarely just past 1 MiB.</summary>
    public byte[] Value()
    {
        if (_random.Next(_largeOneIn) == 0)
        {
            return RandomBytes(MiB + _random.Next(0, 3));
        }

        return _random.Next(8) switch
        {
            0 => [],
            1 => RandomBytes(_random.Next(1024, 65_537)),
            2 => [0xC3, 0x28, 0xFF], // not UTF-8, for the string helpers
            _ => RandomBytes(_random.Next(0, 200)),
        };
    }

    /// <summary>A prefix: empty, 0xFF runs (no prefix end), a key's beginning, or a whole pool key.</summary>
    public byte[] Prefix()
    {
        var key = Key();
        return _random.Next(6) switch
        {
            0 => [],
            1 => Filled(_random.Next(1, 4), 0xFF),
            2 => [0x00],
            3 => key,
            _ => key[..Math.Max(1, _random.Next(key.Length + 1))],
        };
    }

    /// <summary>A range bound: empty (open), a key, a prefix, or 0xFF runs.</summary>
    public byte[] Bound() => _random.Next(5) == 0 ? [] : _random.Next(2) == 0 ? Key() : Prefix();

    /// <summary>A string for the UTF-8 helpers: a hostile one, or a pool key when it is valid UTF-8.</summary>
    public string Text()
    {
        if (_random.Next(2) == 0)
        {
            return Strings[_random.Next(Strings.Length)];
        }

        var key = Key();
        return key.Length < 4096 && System.Text.Unicode.Utf8.IsValid(key) ? Encoding.UTF8.GetString(key) : Strings[_random.Next(Strings.Length)];
    }

    /// <summary>A buffer size for Get into a span: empty, one short, exact, longer.</summary>
    public int BufferSize(int? valueLength)
    {
        var length = valueLength ?? _random.Next(0, 64);
        return _random.Next(4) switch
        {
            0 => 0,
            1 => Math.Max(0, length - 1),
            2 => length,
            _ => length + _random.Next(1, 32),
        };
    }

    private byte[] RandomBytes(int length)
    {
        var bytes = new byte[length];
        _random.NextBytes(bytes);
        return bytes;
    }

    private static byte[] Filled(int length, byte fill)
    {
        var bytes = new byte[length];
        bytes.AsSpan().Fill(fill);
        return bytes;
    }
}
