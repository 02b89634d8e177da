namespace DataStore.Tests.Conformance;

/// <summary>One seeded random walk of <see cref="DifferentialContract"/>: applies each operation to the store and the model, then compares.</summary>
internal sealed class DifferentialRun(IKeyValueStore store, int seed)
{
    private static readonly byte[] Alphabet = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF];
    private readonly Random _random = new(seed);
    private readonly SortedDictionary<byte[], byte[]> _model = new(KeyOrder.Instance);
    private readonly List<byte[]> _known = [];
    private int _hugeKeys;
    private int _hugeValues;
    private int _step;

    public string LastOperation { get; private set; } = "";

    public void Step()
    {
        _step++;
        switch (_random.Next(100))
        {
            case < 35: Put(); break;
            case < 45: Delete(); break;
            case < 50: DeletePrefix(); break;
            case < 54: DeleteRange(); break;
            case < 66: Batch(); break;
            case < 78: ComparePrefixScan(); break;
            case < 86: CompareRangeScan(); break;
            default: ComparePoint(); break;
        }
    }

    private void Put()
    {
        var key = NewOrKnownKey();
        var value = NewValue();
        LastOperation = $"Put {Bytes.Hex(key)} ({value.Length} bytes)";
        store.Put(key, value);
        _model[key] = value;
    }

    private void Delete()
    {
        var key = NewOrKnownKey();
        LastOperation = $"Delete {Bytes.Hex(key)}";
        store.Delete(key);
        _model.Remove(key);
    }

    private void DeletePrefix()
    {
        var prefix = ShortPrefix();
        LastOperation = $"DeletePrefix {Bytes.Hex(prefix)}";
        var removed = store.DeletePrefix(prefix);
        Assert.Equal(ModelRemovePrefix(prefix), removed);
    }

    private void DeleteRange()
    {
        var (start, end) = NewRange();
        LastOperation = $"DeleteRange {Bytes.Hex(start)}..{Bytes.Hex(end)}";
        var removed = store.DeleteRange(start, end);
        Assert.Equal(ModelRemoveRange(start, end), removed);
    }

    private void Batch()
    {
        var batch = new WriteBatch();
        var model = new SortedDictionary<byte[], byte[]>(_model, KeyOrder.Instance);
        var holds = true;
        for (var i = _random.Next(3); i > 0; i--)
        {
            var key = NewOrKnownKey();
            var present = model.TryGetValue(key, out var current);
            if (_random.Next(2) == 0)
            {
                batch.RequireAbsent(key);
                holds &= !present;
            }
            else
            {
                var expected = present && _random.Next(4) > 0 ? current! : NewValue();
                batch.RequireValue(key, expected);
                holds &= present && current!.AsSpan().SequenceEqual(expected);
            }
        }

        for (var i = 1 + _random.Next(8); i > 0; i--)
        {
            switch (_random.Next(10))
            {
                case < 6:
                    var key = NewOrKnownKey();
                    var value = NewValue();
                    batch.Put(key, value);
                    model[key] = value;
                    break;
                case < 8:
                    var doomed = NewOrKnownKey();
                    batch.Delete(doomed);
                    model.Remove(doomed);
                    break;
                case 8:
                    var prefix = ShortPrefix();
                    batch.DeletePrefix(prefix);
                    foreach (var k in model.Keys.Where(k => k.AsSpan().StartsWith(prefix)).ToList())
                    {
                        model.Remove(k);
                    }

                    break;
                default:
                    var (start, end) = NewRange();
                    batch.DeleteRange(start, end);
                    foreach (var k in model.Keys.Where(k => InRange(k, start, end)).ToList())
                    {
                        model.Remove(k);
                    }

                    break;
            }
        }

        LastOperation = $"Batch of {batch.Count} with {batch.PreconditionCount} preconditions (expected to {(holds ? "commit" : "fail")})";
        Assert.Equal(holds, store.TryWrite(batch, out _));
        if (holds)
        {
            _model.Clear();
            foreach (var (k, v) in model)
            {
                _model[k] = v;
            }
        }
    }

    private void ComparePrefixScan()
    {
        var prefix = _random.Next(5) == 0 ? [] : ShortPrefix();
        var keysOnly = _random.Next(3) == 0;
        LastOperation = $"ScanPrefix {Bytes.Hex(prefix)} keysOnly={keysOnly}";
        var expected = _model.Where(p => p.Key.AsSpan().StartsWith(prefix)).ToList();
        Compare(expected, StoreAssert.Scan(store, prefix, keysOnly), keysOnly);
    }

    private void CompareRangeScan()
    {
        var (start, end) = NewRange();
        var keysOnly = _random.Next(3) == 0;
        LastOperation = $"ScanRange {Bytes.Hex(start)}..{Bytes.Hex(end)} keysOnly={keysOnly}";
        var expected = _model.Where(p => InRange(p.Key, start, end)).ToList();
        Compare(expected, StoreAssert.Range(store, start, end, keysOnly), keysOnly);
    }

    private void ComparePoint()
    {
        var key = NewOrKnownKey();
        LastOperation = $"Get {Bytes.Hex(key)}";
        var actual = store.Get(key);
        if (_model.TryGetValue(key, out var expected))
        {
            Assert.NotNull(actual);
            Assert.True(actual.AsSpan().SequenceEqual(expected), $"value of {Bytes.Hex(key)} differs");
            Assert.True(store.HaveKey(key));
        }
        else
        {
            Assert.Null(actual);
            Assert.False(store.HaveKey(key));
        }
    }

    private static void Compare(List<KeyValuePair<byte[], byte[]>> expected, List<(byte[] Key, byte[] Value)> actual, bool keysOnly)
    {
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.True(expected[i].Key.AsSpan().SequenceEqual(actual[i].Key), $"key {i}: expected {Bytes.Hex(expected[i].Key)}, got {Bytes.Hex(actual[i].Key)}");
            if (!keysOnly)
            {
                Assert.True(expected[i].Value.AsSpan().SequenceEqual(actual[i].Value), $"value of {Bytes.Hex(expected[i].Key)} differs");
            }
        }
    }

    private long ModelRemovePrefix(byte[] prefix) => ModelRemoveWhere(k => k.AsSpan().StartsWith(prefix));

    private long ModelRemoveRange(byte[] start, byte[] end) => ModelRemoveWhere(k => InRange(k, start, end));

    private long ModelRemoveWhere(Func<byte[], bool> doomed)
    {
        var keys = _model.Keys.Where(doomed).ToList();
        foreach (var key in keys)
        {
            _model.Remove(key);
        }

        return keys.Count;
    }

    private static bool InRange(byte[] key, byte[] start, byte[] end) =>
        key.AsSpan().SequenceCompareTo(start) >= 0 && (end.Length == 0 || key.AsSpan().SequenceCompareTo(end) < 0);

    private byte[] NewOrKnownKey()
    {
        if (_known.Count > 0 && _random.Next(3) == 0)
        {
            var known = _known[_random.Next(_known.Count)];
            return _random.Next(4) == 0 ? [.. known, Alphabet[_random.Next(Alphabet.Length)]] : known;
        }

        byte[] key;
        if (_hugeKeys < 3 && (_step % 700 == 350 || _random.Next(400) == 0))
        {
            _hugeKeys++;
            key = Bytes.Random(1 << 20, _random.Next());
            key[0] = Alphabet[_random.Next(Alphabet.Length)];
        }
        else
        {
            key = new byte[1 + _random.Next(5)];
            for (var i = 0; i < key.Length; i++)
            {
                key[i] = Alphabet[_random.Next(Alphabet.Length)];
            }
        }

        _known.Add(key);
        return key;
    }

    private byte[] NewValue()
    {
        if (_hugeValues < 2 && (_step % 1000 == 500 || _random.Next(600) == 0))
        {
            _hugeValues++;
            return Bytes.Random(16 << 20, _random.Next());
        }

        return _random.Next(6) == 0 ? [] : Bytes.Random(_random.Next(1, 64), _random.Next());
    }

    private byte[] ShortPrefix()
    {
        var prefix = new byte[1 + _random.Next(2)];
        for (var i = 0; i < prefix.Length; i++)
        {
            prefix[i] = Alphabet[_random.Next(Alphabet.Length)];
        }

        return prefix;
    }

    private (byte[] Start, byte[] End) NewRange()
    {
        var start = _random.Next(6) == 0 ? [] : ShortPrefix();
        var end = _random.Next(6) == 0 ? [] : ShortPrefix();
        if (start.Length > 0 && end.Length > 0 && start.AsSpan().SequenceCompareTo(end) > 0)
        {
            (start, end) = (end, start);
        }

        return (start, end);
    }
}
