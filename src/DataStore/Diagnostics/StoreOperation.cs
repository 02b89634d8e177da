namespace DataStore.Diagnostics;

/// <summary>The operation kinds that DataStore's meter counts and times (the <c>operation</c> tag).</summary>
internal enum StoreOperation
{
    Put,
    Get,
    HaveKey,
    Delete,
    DeletePrefix,
    DeleteRange,
    Scan,
    Write,
    Compact,
    Export,
    Import,
    Migrate,
    Backup,
    Verify,
    HandOver,
}
