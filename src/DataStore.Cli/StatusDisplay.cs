using Spectre.Console;

namespace DataStore.Cli;

/// <summary>A spinner on stderr while a long operation runs, shown only when stderr is a terminal.</summary>
internal static class StatusDisplay
{
    public static T While<T>(string status, Func<T> work)
    {
        if (Console.IsErrorRedirected)
        {
            return work();
        }

        var console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Error) });
        return console.Status().Start($"{status}...", _ => work());
    }
}
