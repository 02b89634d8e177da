using System.Buffers;
using System.Text;
using DataStore.Utf8;

namespace DataStore.Tests.Api;

/// <summary>One random call on the public surface of <see cref="IKeyValueStore"/>, its extension methods and
/// <see cref="WriteBatch"/>: a name with its arguments, and the call, run once on the model and once on the store.</summary>
internal sealed record ApiFuzzCall(string Name, Func<IKeyValueStore, string> Run);

/// <summary>Draws the point, range, scan and batch calls of the public-method fuzz; arguments come from <see cref="ApiFuzzInputs"/>.</summary>
internal sealed class ApiFuzzOperations(Random random, ApiFuzzInputs inputs, IKeyValueStore model)
{
    public ApiFuzzCall Next() => random.Next(20) switch
    {
        0 or 1 or 2 => Put(),
        3 => GetIntoWriter(),
        4 => GetIntoSpan(),
        5 => KeyCall("HaveKey", (s, k) => s.HaveKey(k).ToString()),
        6 => KeyCall("Delete", (s, k) =>
        {
            s.Delete(k);
            return "";
        }),
        7 => DeletePrefix(),
        8 => DeleteRange(),
        9 or 10 => Scan(),
        11 or 12 => Batch(),
        13 => KeyCall("Get(byte[])", (s, k) => s.TryGet(k, out var v) ? ApiOutcome.Hash(v) : (s.Get(k) is null).ToString()),
        14 => Enumerate(),
        15 or 16 => Text(),
        17 => ScanWhileWriting(),
        _ => CursorMisuse(),
    };

    private ApiFuzzCall Put()
    {
        var key = inputs.KeyArgument();
        var value = inputs.Value();
        return new($"Put({ApiOutcome.Show(key)}, {ApiOutcome.Show(value)})", s =>
        {
            s.Put(key, value);
            return "";
        });
    }

    private ApiFuzzCall KeyCall(string name, Func<IKeyValueStore, byte[], string> call)
    {
        var key = inputs.KeyArgument();
        return new($"{name}({ApiOutcome.Show(key)})", s => call(s, key));
    }

    // Into a writer that already holds bytes: the value is appended after them.
    private ApiFuzzCall GetIntoWriter()
    {
        var key = inputs.KeyArgument();
        var already = random.Next(3) == 0 ? new byte[random.Next(1, 40)] : [];
        var capacity = random.Next(1, 64);
        return new($"Get({ApiOutcome.Show(key)}, writer holding {already.Length})", s =>
        {
            var writer = new ArrayBufferWriter<byte>(capacity);
            writer.Write(already);
            var found = s.Get(key, writer);
            return $"{found} {ApiOutcome.Hash(writer.WrittenSpan)}";
        });
    }

    // Into a span of a wrong, exact or generous size, pre-filled: what is past the value (or all of it) stays untouched.
    private ApiFuzzCall GetIntoSpan()
    {
        var key = inputs.KeyArgument();
        var size = inputs.BufferSize(key.Length > 0 ? model.Get(key)?.Length : null);
        return new($"Get({ApiOutcome.Show(key)}, span of {size})", s =>
        {
            var buffer = new byte[size];
            buffer.AsSpan().Fill(0xCC);
            var length = s.Get(key, buffer);
            return $"{length} {ApiOutcome.Hash(buffer)}";
        });
    }

    private ApiFuzzCall DeletePrefix()
    {
        var prefix = inputs.Prefix();
        return new($"DeletePrefix({ApiOutcome.Show(prefix)})", s => s.DeletePrefix(prefix).ToString());
    }

    private ApiFuzzCall DeleteRange()
    {
        var (start, end) = (inputs.Bound(), inputs.Bound());
        return new($"DeleteRange({ApiOutcome.Show(start)}, {ApiOutcome.Show(end)})", s => s.DeleteRange(start, end).ToString());
    }

    // A prefix or range scan, keys only or not, read to the end or disposed early.
    private ApiFuzzCall Scan()
    {
        var range = random.Next(2) == 0;
        var (first, second) = range ? (inputs.Bound(), inputs.Bound()) : (inputs.Prefix(), []);
        var keysOnly = random.Next(3) == 0;
        var take = random.Next(3) == 0 ? random.Next(0, 4) : int.MaxValue;
        var name = range ? $"ScanRange({ApiOutcome.Show(first)}, {ApiOutcome.Show(second)}" : $"ScanPrefix({ApiOutcome.Show(first)}";
        return new($"{name}, keysOnly {keysOnly}) taking {take}", s =>
        {
            using var cursor = range ? s.ScanRange(first, second, keysOnly) : s.ScanPrefix(first, keysOnly);
            return Read(cursor, take);
        });
    }

    // Puts, deletes, prefix and range deletes with preconditions that hold or not; Write or TryWrite; sometimes reused after Clear.
    private ApiFuzzCall Batch()
    {
        var steps = new List<Action<WriteBatch>>();
        var names = new List<string>();
        for (var i = random.Next(0, 3); i > 0; i--)
        {
            var key = inputs.KeyArgument();
            if (random.Next(2) == 0)
            {
                steps.Add(b => b.RequireAbsent(key));
                names.Add($"absent {ApiOutcome.Show(key)}");
                continue;
            }

            var current = key.Length > 0 ? model.Get(key) : null;
            var expected = current is not null && random.Next(3) > 0 ? current : inputs.Value();
            steps.Add(b => b.RequireValue(key, expected));
            names.Add($"equals {ApiOutcome.Show(key)}={ApiOutcome.Show(expected)}");
        }

        for (var i = random.Next(0, 6); i > 0; i--)
        {
            var (key, value, bound) = (inputs.KeyArgument(), inputs.Value(), inputs.Bound());
            var kind = random.Next(5);
            steps.Add(kind switch
            {
                0 or 1 => b => b.Put(key, value),
                2 => b => b.Delete(key),
                3 => b => b.DeletePrefix(bound),
                _ => b => b.DeleteRange(key, bound),
            });
            names.Add($"{kind} {ApiOutcome.Show(key)} {ApiOutcome.Show(bound)}");
        }

        var (tryWrite, reuse) = (random.Next(2) == 0, random.Next(4) == 0);
        return new($"{(tryWrite ? "TryWrite" : "Write")}(reuse {reuse}: {string.Join("; ", names)})", s =>
        {
            var batch = new WriteBatch();
            if (reuse)
            {
                batch.Put("junk"u8, "junk"u8).RequireAbsent("junk"u8).Clear();
            }

            steps.ForEach(step => step(batch));
            if (!tryWrite)
            {
                s.Write(batch);
                return $"{batch.Count}/{batch.PreconditionCount}";
            }

            var written = s.TryWrite(batch, out var failure);
            return written ? "written" : $"{failure!.Index} {ApiOutcome.Hash(failure.Key)} {failure.Kind}";
        });
    }

    private ApiFuzzCall Enumerate()
    {
        var (first, second) = (inputs.Bound(), inputs.Bound());
        var take = random.Next(0, 6);
        return random.Next(3) switch
        {
            0 => new($"EnumeratePrefix({ApiOutcome.Show(first)}).Take({take})", s => Pairs(s.EnumeratePrefix(first).Take(take))),
            1 => new($"EnumerateRange({ApiOutcome.Show(first)}, {ApiOutcome.Show(second)}).Take({take})", s => Pairs(s.EnumerateRange(first, second).Take(take))),
            _ => new($"EnumerateKeys({ApiOutcome.Show(first)})", s => string.Join(",", s.EnumerateKeys(first).Select(k => ApiOutcome.Hash(k)))),
        };
    }

    // The UTF-8 helpers, with lone surrogates (not encodable), NULs, and stored values that are not UTF-8.
    private ApiFuzzCall Text()
    {
        var (key, value) = (inputs.Text(), inputs.Text());
        return random.Next(6) switch
        {
            0 => new($"Put({ApiOutcome.Show(key)}, {ApiOutcome.Show(value)})", s =>
            {
                s.Put(key, value);
                return "";
            }),
            1 => new($"GetString({ApiOutcome.Show(key)})", s => s.GetString(key) ?? "null"),
            2 => new($"TryGetString({ApiOutcome.Show(key)})", s => s.TryGetString(key, out var text) ? text : "false"),
            3 => new($"HaveKey({ApiOutcome.Show(key)})", s => s.HaveKey(key).ToString()),
            4 => new($"Delete({ApiOutcome.Show(key)})", s =>
            {
                s.Delete(key);
                return "";
            }),
            _ => new($"EnumeratePrefix({ApiOutcome.Show(key)})", s => string.Join(",", s.EnumeratePrefix(key).Take(8).Select(p => $"{p.Key}={p.Value.Length}"))),
        };
    }

    // Reads part of a scan, writes, reads the rest: a snapshot scan does not see the write (the model's scans are snapshots).
    private ApiFuzzCall ScanWhileWriting()
    {
        var prefix = inputs.Prefix();
        var (key, value, take) = (inputs.Key(), inputs.Value(), random.Next(0, 3));
        return new($"ScanPrefix({ApiOutcome.Show(prefix)}) with Put({ApiOutcome.Show(key)}) after {take}", s =>
        {
            using var cursor = s.ScanPrefix(prefix);
            var before = Read(cursor, take);
            s.Put(key, value);
            return $"{before} | {Read(cursor, int.MaxValue)}";
        });
    }

    // MoveNext past the end keeps returning false; a second Dispose is harmless.
    private ApiFuzzCall CursorMisuse()
    {
        var prefix = inputs.Prefix();
        return new($"ScanPrefix({ApiOutcome.Show(prefix)}) past its end, disposed twice", s =>
        {
            var cursor = s.ScanPrefix(prefix, keysOnly: true);
            var all = Read(cursor, int.MaxValue);
            var again = cursor.MoveNext() || cursor.MoveNext();
            cursor.Dispose();
            cursor.Dispose();
            return $"{all} {again}";
        });
    }

    private static string Read(IKeyValueCursor cursor, int take)
    {
        var read = new StringBuilder();
        for (var i = 0; i < take && cursor.MoveNext(); i++)
        {
            read.Append(ApiOutcome.Hash(cursor.Key)).Append('=').Append(ApiOutcome.Hash(cursor.Value)).Append(',');
        }

        return read.ToString();
    }

    private static string Pairs(IEnumerable<KeyValuePair<byte[], byte[]>> pairs) =>
        string.Join(",", pairs.Select(p => $"{ApiOutcome.Hash(p.Key)}={ApiOutcome.Hash(p.Value)}"));
}
