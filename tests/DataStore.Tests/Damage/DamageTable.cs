namespace DataStore.Tests.Damage;

/// <summary>The damage matrix's counts as a row of docs/reliability.md's table.</summary>
public static class DamageTable
{
    public const string Header =
        "| backend | cases | recovered | earlier state (log tail dropped) | error naming the file | error not naming it | other exception | crash | hang | wrong data | verify said healthy after an error |";

    public static string Row(StoreBackend backend, IReadOnlyList<DamageResult> results)
    {
        int Count(DamageOutcome outcome) => results.Count(r => r.Outcome == outcome);
        return $"| {backend} | {results.Count} | {Count(DamageOutcome.Recovered)} | {Count(DamageOutcome.EarlierState)} | {Count(DamageOutcome.ClearError)} | " +
            $"{Count(DamageOutcome.UnnamedError)} | {Count(DamageOutcome.ForeignException)} | {Count(DamageOutcome.Crash)} | {Count(DamageOutcome.Hang)} | " +
            $"{Count(DamageOutcome.WrongData)} | {results.Count(r => r.VerifyMissed)} |";
    }
}
