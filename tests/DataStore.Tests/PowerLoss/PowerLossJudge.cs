using System.Buffers.Binary;
using System.Text;

namespace DataStore.Tests.PowerLoss;

/// <summary>How one replayed store measured up: what failed (must be nothing), and what acknowledged writes it lost.</summary>
public sealed record PowerLossVerdict(List<string> Failures, int Acknowledged, int Lost, double LossWindowSeconds);

/// <summary>
/// Judges a replayed store against the writes acknowledged before the power loss: it must have opened and verified
/// clean, hold no half batch and no value that was never written, and keep every acknowledged write that its
/// durability promises (Durable: every one; Relaxed: every one older than <c>bound</c>).
/// </summary>
public static class PowerLossJudge
{
    /// <summary>What every failure of <see cref="LostBeforeKept"/> says: an older write lost while a newer one was kept.</summary>
    public const string HoleInHistory = "a hole in the history";

    public static PowerLossVerdict Judge(PowerLossReading reading, IReadOnlyList<PowerLossAck> allAcks, int point, long crashNs, Durability durability, TimeSpan bound, bool logRestartAllowed = false, long subscriberSaw = 0)
    {
        var failures = new List<string>();
        if (reading.Error is not null)
        {
            return new PowerLossVerdict([$"did not open or read: {reading.Error}"], 0, 0, 0);
        }

        if (reading.Problems.Length > 0)
        {
            failures.Add($"verify: {reading.Problems}");
        }

        var hotWritten = allAcks.Where(a => a.Kind == 'H').GroupBy(a => a.Hot).ToDictionary(g => g.Key, g => g.Select(a => a.Number).ToHashSet());
        var batchHalves = new Dictionary<int, int>();
        var hot = new Dictionary<int, int>();
        foreach (var (keyHex, valueHex) in reading.Pairs)
        {
            var key = Convert.FromHexString(keyHex);
            var value = Convert.FromHexString(valueHex);
            var (tag, number, suffix) = Split(key);
            var held = value.Length == 4 ? BinaryPrimitives.ReadInt32BigEndian(value) : int.MinValue;
            var wrong = tag switch
            {
                "put" => suffix.Length != 0 || held != number,
                "batch" => suffix is not ("a" or "b") || held != number,
                "hot" => suffix.Length != 0 || !hotWritten.GetValueOrDefault(number, []).Contains(held),
                _ => true,
            };
            if (wrong)
            {
                failures.Add($"a pair that was never written: {keyHex} = {valueHex}");
            }
            else if (tag == "batch")
            {
                batchHalves[number] = batchHalves.GetValueOrDefault(number) + 1;
            }
            else if (tag == "hot")
            {
                hot[number] = held;
            }
        }

        failures.AddRange(batchHalves.Where(b => b.Value != 2).Select(b => $"half a batch: batch/{b.Key} has {b.Value} of its 2 keys"));

        var before = allAcks.Where(a => a.Index < point).ToList();
        // The call in flight at the power loss (the first acknowledged after it: the workload has one thread) may have
        // happened: a delete whose record reached the disk is completed by recovery, so its key may be gone too.
        var inFlight = allAcks.FirstOrDefault(a => a.Index >= point);
        var deleted = before.Append(inFlight).OfType<PowerLossAck>().Where(a => a.Kind is 'D' or 'X').Select(a => (a.Kind == 'D' ? 'P' : 'B', a.Number)).ToHashSet();
        var lost = new List<PowerLossAck>();
        foreach (var ack in before)
        {
            var present = ack.Kind switch
            {
                'P' => deleted.Contains(('P', ack.Number)) || reading.Pairs.ContainsKey(Hex("put", ack.Number, "")),
                'B' => deleted.Contains(('B', ack.Number)) || batchHalves.GetValueOrDefault(ack.Number) == 2,
                'D' => !reading.Pairs.ContainsKey(Hex("put", ack.Number, "")), // a deleted key never comes back
                'X' => batchHalves.GetValueOrDefault(ack.Number) == 0,
                _ => hot.GetValueOrDefault(ack.Hot, int.MinValue) >= ack.Number, // this value or a newer one
            };
            if (!present)
            {
                lost.Add(ack);
            }
        }

        var required = durability == Durability.Durable ? lost : lost.Where(a => a.TimeNs <= crashNs - bound.Ticks * 100).ToList();
        failures.AddRange(required.Take(5).Select(a =>
            $"acknowledged {(crashNs - a.TimeNs) / 1e9:F3} s before the power loss and lost: {a.Kind} {(a.Kind == 'H' ? $"hot/{a.Hot} = " : "")}{a.Number}"));
        if (required.Count > 5)
        {
            failures.Add($"... {required.Count - 5} more acknowledged writes lost");
        }

        failures.AddRange(LostBeforeKept(before, lost, deleted));

        failures.AddRange(PowerLossLogAgreement.Check(reading, allAcks, point, logRestartAllowed, subscriberSaw));
        if (reading.Rewrite is { Length: > 0 } rewrite)
        {
            failures.Add($"writing after the power loss: {rewrite}");
        }

        var window = lost.Count == 0 ? 0 : (crashNs - lost.Min(a => a.TimeNs)) / 1e9;
        return new PowerLossVerdict(failures, before.Count, lost.Count, window);
    }

    /// <summary>
    /// A power loss costs the latest writes, never an older one while a newer one stays (the workload has one thread, so
    /// acknowledgement order is commit order): a put or batch of new keys lost before the last one kept is a hole.
    /// </summary>
    private static IEnumerable<string> LostBeforeKept(List<PowerLossAck> before, List<PowerLossAck> lost, HashSet<(char, int)> deleted)
    {
        var missing = lost.ToHashSet();
        var newKeys = before.Where(a => a.Kind is 'P' or 'B' && !deleted.Contains((a.Kind, a.Number))).ToList();
        var lastKept = newKeys.FindLastIndex(a => !missing.Contains(a));
        var hole = newKeys.Take(lastKept).Where(missing.Contains).ToList();
        return hole.Count == 0 ? [] :
            [$"lost {hole.Count} acknowledged writes ({hole[0].Kind} {hole[0].Number} .. {hole[^1].Kind} {hole[^1].Number}) and kept a later one ({newKeys[lastKept].Kind} {newKeys[lastKept].Number}): {HoleInHistory}"];
    }

    private static (string Tag, int Number, string Suffix) Split(byte[] key)
    {
        var slash = Array.IndexOf(key, (byte)'/');
        if (slash < 0 || key.Length < slash + 5)
        {
            return ("?", 0, "");
        }

        return (Encoding.ASCII.GetString(key, 0, slash), BinaryPrimitives.ReadInt32BigEndian(key.AsSpan(slash + 1, 4)), Encoding.ASCII.GetString(key, slash + 5, key.Length - slash - 5));
    }

    /// <summary>The hex of the key <c>tag/number suffix</c>, as the reader prints keys.</summary>
    public static string Hex(string tag, int number, string suffix) =>
        Convert.ToHexString(Encoding.ASCII.GetBytes(tag + "/")) + Hex(number) + Convert.ToHexString(Encoding.ASCII.GetBytes(suffix));

    /// <summary>The hex of a value the writer wrote (the number, 4 bytes big-endian).</summary>
    public static string Hex(int number)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, number);
        return Convert.ToHexString(bytes);
    }
}
