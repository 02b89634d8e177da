using System.Text;
using Spectre.Console;

namespace DataStore.Cli;

/// <summary>
/// Writes name/value rows to the command's stdout: a Spectre.Console table on a terminal, plain <c>name: value</c>
/// lines (no box drawing, no colour) when stdout is redirected to a file or a pipe.
/// </summary>
internal static class TableWriter
{
    public static void Write(CliContext context, IReadOnlyList<(string Name, string Value)> rows)
    {
        if (Console.IsOutputRedirected)
        {
            foreach (var (name, value) in rows)
            {
                context.WriteLine($"{name}: {value}");
            }

            return;
        }

        var table = new Table().AddColumn("property").AddColumn("value");
        foreach (var (name, value) in rows)
        {
            table.AddRow(Markup.Escape(name), Markup.Escape(value));
        }

        var text = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(text) });
        if (Console.WindowWidth > 0)
        {
            console.Profile.Width = Console.WindowWidth;
        }

        console.Write(table);
        context.Write(Encoding.UTF8.GetBytes(text.ToString()));
    }
}
