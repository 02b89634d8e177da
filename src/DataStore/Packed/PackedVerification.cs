namespace DataStore.Packed;

/// <summary>Checks every block of a packed file against its CRC-32C (what <c>datastore verify</c> runs).</summary>
internal static class PackedVerification
{
    public static IReadOnlyList<string> CheckBlocks(PackedFile file, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        for (var block = 0; block < file.BlockCount; block++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                _ = file.Block(block);
            }
            catch (StoreFormatException e)
            {
                problems.Add(e.Message);
            }
        }

        return problems;
    }
}
