namespace DataStore.Tests.Damage;

public sealed class SqliteDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;

    // SQLite keeps no checksum of its pages: bytes flipped or zeroed inside a b-tree page can send a lookup past a key
    // that is there, so Get answers "absent" without an error (values are checked end to end, keys' presence is not).
    // verify's integrity_check does report the damage. Open in docs/reliability.md ("Damaged files", Sqlite).
    protected override string? KnownOpenDefect(DamageResult result) =>
        result is { Outcome: DamageOutcome.WrongData, VerifyMissed: false, Case: { File: "store.sqlite", Kind: DamageKind.Flip or DamageKind.Zero } } &&
        result.Detail.StartsWith("WRONG ", StringComparison.Ordinal) && result.Detail.Split(" / ")[0].EndsWith(" is absent", StringComparison.Ordinal) &&
        result.Detail.Contains("VERIFY damaged", StringComparison.Ordinal)
            ? "a damaged SQLite b-tree page hides a present key from Get (no page checksums); verify reports the damage"
            : null;
}

public sealed class LmdbDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class FileSystemDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class LiteDbDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}
