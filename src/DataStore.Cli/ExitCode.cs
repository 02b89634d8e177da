namespace DataStore.Cli;

/// <summary>The documented exit codes of <c>datastore</c>.</summary>
internal static class ExitCode
{
    /// <summary>The command did what it was asked.</summary>
    public const int Ok = 0;

    /// <summary><c>get</c> or <c>has</c>: the key is absent.</summary>
    public const int NotFound = 1;

    /// <summary>
    /// The command line is wrong: unknown command or option, bad hex or base64, an input file that does not exist,
    /// a destination that already exists, a binary dump aimed at a terminal.
    /// </summary>
    public const int Usage = 2;

    /// <summary>The store cannot be used: missing, of another backend, locked too long, damaged, or a file system error.</summary>
    public const int StoreError = 3;

    /// <summary>
    /// Damaged data: <c>verify</c> found problems (or the engine crashed reading the store), a dump failed its checks,
    /// or a migrated copy did not match its source.
    /// </summary>
    public const int Damaged = 4;

    /// <summary>Cancelled by Ctrl+C (SIGINT) or SIGTERM; the command's partial output was removed (128 + SIGINT, as shells report).</summary>
    public const int Cancelled = 130;

    /// <summary>The one-line summary of every code, for <c>--help</c>.</summary>
    public const string Summary =
        "Exit codes: 0 ok, 1 key not found, 2 usage, 3 store error, 4 damaged data (verify found problems, a damaged dump), 130 cancelled (Ctrl+C).";
}
