namespace DataStore.Sharing;

/// <summary>What a client can learn about its owner process from the operating system.</summary>
internal static class OwnerProcess
{
    /// <summary>
    /// True when the process is stopped: by a signal (SIGSTOP, SIGTSTP from Ctrl+Z; state <c>T</c> in
    /// <c>/proc/PID/stat</c>) or at a debugger's stop (<c>t</c>). False when it runs, sleeps or waits on the disk, when it
    /// is gone, and on other operating systems.
    /// </summary>
    public static bool IsStopped(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            return false;
        }

        try
        {
            return StatSaysStopped(File.ReadAllText($"/proc/{processId}/stat"));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>True when a <c>/proc</c> stat line (of a process or of one of its threads) reads stopped, <c>T</c> or <c>t</c>.</summary>
    public static bool StatSaysStopped(string stat)
    {
        // "pid (comm) state ...": the command name may hold spaces and parentheses, so the state follows the last ')'.
        var end = stat.LastIndexOf(')');
        return end >= 0 && end + 2 < stat.Length && stat[end + 2] is 'T' or 't';
    }
}
