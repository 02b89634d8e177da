using System.Text;
using Spectre.Console;

namespace DataStore.Cli;

/// <summary>Renders a Spectre.Console table to the command's stdout: with colour on a terminal, plain when redirected.</summary>
internal static class TableWriter
{
    public static void Write(CliContext context, Table table)
    {
        var text = new StringWriter();
        var redirected = Console.IsOutputRedirected;
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(text),
            Ansi = redirected ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = redirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
        });
        if (!redirected && Console.WindowWidth > 0)
        {
            console.Profile.Width = Console.WindowWidth;
        }

        console.Write(table);
        context.Write(Encoding.UTF8.GetBytes(text.ToString()));
    }
}
