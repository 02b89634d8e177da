using System.CommandLine.Parsing;
using System.Globalization;

namespace DataStore.Cli;

/// <summary>Parses a count or sequence-number option, so a negative, fractional or too large number is a usage error naming it, never an exception.</summary>
internal static class WholeNumber
{
    /// <summary>The option's value, 0 to <see cref="long.MaxValue"/>, or null with an error added to <paramref name="result"/>.</summary>
    public static long? Parse(ArgumentResult result, string option)
    {
        var text = result.Tokens.Count > 0 ? result.Tokens[^1].Value : "";
        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value))
        {
            return value;
        }

        result.AddError($"{option} '{text}' is not a whole number from 0 to {long.MaxValue}.");
        return null;
    }
}
