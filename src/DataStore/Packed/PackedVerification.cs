namespace DataStore.Packed;

/// <summary>Checks a whole packed file (what <c>datastore verify</c> runs): every index page, every entry's place, every block's CRC-32C.</summary>
internal static class PackedVerification
{
    public static IReadOnlyList<string> CheckBlocks(PackedFile file, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        for (var page = 0L; page < file.Pages.Count; page++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            Collect(problems, () => file.Pages.Check(page));
        }

        if (problems.Count == 0)
        {
            Collect(problems, () => CheckEntries(file));
        }

        for (var block = 0; block < file.BlockCount; block++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            Collect(problems, () => { _ = file.Block(block); });
        }

        return problems;
    }

    /// <summary>Every block lies right after the previous one, and the entries' pair counts add up to the footer's.</summary>
    private static void CheckEntries(PackedFile file)
    {
        long expected = PackedFormat.HeaderLength, pairs = 0;
        for (var block = 0; block < file.BlockCount; block++)
        {
            var entry = file.Entry(block);
            if (entry.Offset != expected)
            {
                throw PackedDamage.Error(file.StorePath, file.FilePath, $"index entry {block} places its block at offset {entry.Offset}, not right after the previous block ({expected})");
            }

            expected += entry.Length;
            pairs += entry.Pairs;
        }

        if (expected != file.Footer.IndexOffset || pairs != file.Footer.PairCount)
        {
            throw PackedDamage.Error(file.StorePath, file.FilePath, "its index does not account for every block and pair the footer counts");
        }
    }

    private static void Collect(List<string> problems, Action check)
    {
        try
        {
            check();
        }
        catch (StoreFormatException e)
        {
            problems.Add(e.Message);
        }
    }
}
