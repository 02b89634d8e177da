using System.Globalization;
using System.Text;

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// One write the workload acknowledged (a line of its marks file, recorded by the shim in order with the store's file
/// operations): <c>P i</c> (put/i = i), <c>B i</c> (batch/i/a and batch/i/b = i), <c>H j i</c> (hot/j = i), and with the
/// change feed <c>D i</c> (put/i deleted) or <c>X i</c> (batch/i's keys deleted with one DeletePrefix), each line then
/// ending in the commit's change-feed sequence (0 without the feed).
/// </summary>
public sealed record PowerLossAck(int Index, long TimeNs, char Kind, int Number, int Hot, long Sequence = 0)
{
    public static List<PowerLossAck> From(IEnumerable<LogRecord> records)
    {
        var acks = new List<PowerLossAck>();
        foreach (var record in records.Where(r => r.Kind == LogKind.Mark))
        {
            foreach (var line in Encoding.ASCII.GetString(record.Data).Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                var parts = line.Split(' ');
                if (parts[0] is "P" or "B" or "D" or "X")
                {
                    acks.Add(new PowerLossAck(record.Index, record.TimeNs, parts[0][0], Parse(parts[1]), -1, SequenceAt(parts, 2)));
                }
                else if (parts[0] == "H")
                {
                    acks.Add(new PowerLossAck(record.Index, record.TimeNs, 'H', Parse(parts[2]), Parse(parts[1]), SequenceAt(parts, 3)));
                }
            }
        }

        return acks;
    }

    /// <summary>
    /// The sequences a subscriber of the writer's process saw (<c>S n t</c> marks, with the feed), each with the time it had
    /// seen it by (the shim's clock): a number seen before a power loss's moment was visible then, acknowledged or not.
    /// </summary>
    public static List<(long TimeNs, long Sequence)> SeenBySubscriber(IEnumerable<LogRecord> records) =>
        records.Where(r => r.Kind == LogKind.Mark)
            .SelectMany(r => Encoding.ASCII.GetString(r.Data).Split('\n', StringSplitOptions.RemoveEmptyEntries))
            .Where(line => line.StartsWith("S ", StringComparison.Ordinal))
            .Select(line => line.Split(' '))
            .Select(parts => (long.Parse(parts[2], NumberStyles.None, CultureInfo.InvariantCulture), long.Parse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture)))
            .ToList();

    private static long SequenceAt(string[] parts, int at) => parts.Length > at ? long.Parse(parts[at], NumberStyles.None, CultureInfo.InvariantCulture) : 0;

    private static int Parse(string text) => int.Parse(text, NumberStyles.None, CultureInfo.InvariantCulture);
}
