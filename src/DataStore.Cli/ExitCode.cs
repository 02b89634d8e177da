namespace DataStore.Cli;

/// <summary>The documented exit codes of <c>datastore</c>.</summary>
internal static class ExitCode
{
    /// <summary>The command did what it was asked.</summary>
    public const int Ok = 0;

    /// <summary><c>get</c> or <c>has</c>: the key is absent.</summary>
    public const int NotFound = 1;

    /// <summary>The command line is wrong: unknown command or option, bad hex or base64, a value file that does not exist.</summary>
    public const int Usage = 2;

    /// <summary>The store cannot be used: missing, of another backend, locked too long, damaged, or a file system error.</summary>
    public const int StoreError = 3;
}
