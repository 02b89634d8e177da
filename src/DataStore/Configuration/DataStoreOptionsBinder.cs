using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace DataStore.Configuration;

/// <summary>
/// Reads <see cref="DataStoreOptions"/> from a configuration section by hand (no reflection, so trimming and native AOT
/// keep it working) and refuses what a user cannot have meant: the root configuration, unknown keys, unreadable values.
/// </summary>
internal static class DataStoreOptionsBinder
{
    private static readonly string[] Known = ["Path", "Backend", "Durability", "Timeout", "SyncInterval", "CreateIfMissing", "ChangeFeed", "ChangeFeedRetention"];

    /// <summary>Sets every option <paramref name="section"/> holds on <paramref name="options"/>; unset ones keep their values.</summary>
    /// <exception cref="InvalidOperationException">The section is the root configuration, holds an unknown key, or a value cannot be read; the message names every such key.</exception>
    public static void Bind(IConfiguration section, DataStoreOptions options)
    {
        var problems = Read(section, options);
        if (problems.Count > 0)
        {
            throw new InvalidOperationException(string.Join(" ", problems.Select(problem => problem.Message)));
        }
    }

    /// <summary>
    /// Sets every option <paramref name="section"/> holds that can be read and returns one (setting, sentence) for each that
    /// cannot, so a host's validation reports all of them at once instead of the first.
    /// </summary>
    /// <exception cref="InvalidOperationException">The section is the root configuration.</exception>
    public static List<(string Setting, string Message)> Read(IConfiguration section, DataStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(options);
        ThrowIfRoot(section);
        var where = ((IConfigurationSection)section).Path;
        var problems = new List<(string Setting, string Message)>();
        AddUnknownKeys(section, where, problems);
        Set(section, "Path", problems, text => options.Path = text);
        Set(section, "Backend", problems, text => options.Backend = text.Length == 0 ? null : ParseEnum<StoreBackend>(text, $"{where}:Backend"));
        Set(section, "Durability", problems, text => options.Durability = text.Length == 0 ? null : ParseEnum<Durability>(text, $"{where}:Durability"));
        Set(section, "Timeout", problems, text => options.Timeout = ParseDuration(text, $"{where}:Timeout"));
        Set(section, "SyncInterval", problems, text => options.SyncInterval = ParseDuration(text, $"{where}:SyncInterval"));
        Set(section, "CreateIfMissing", problems, text => options.CreateIfMissing = bool.TryParse(text, out var value)
            ? value
            : throw Unreadable($"{where}:CreateIfMissing", text, "true or false"));
        Set(section, "ChangeFeed", problems, text => options.ChangeFeed = bool.TryParse(text, out var value)
            ? value
            : throw Unreadable($"{where}:ChangeFeed", text, "true or false"));
        Set(section, "ChangeFeedRetention", problems, text => options.ChangeFeedRetention =
            int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value)
                ? value
                : throw Unreadable($"{where}:ChangeFeedRetention", text, "a number of commits"));
        return problems;
    }

    /// <summary>Refuses the root configuration (or anything that is not a section), where <c>PATH</c> would bind as <c>Path</c>.</summary>
    public static void ThrowIfRoot(IConfiguration configuration)
    {
        if (configuration is IConfigurationRoot || configuration is not IConfigurationSection { Path.Length: > 0 })
        {
            throw new InvalidOperationException(
                "DataStore options were given the root configuration, where environment variables such as PATH would bind as settings. " +
                $"Pass the store's own section instead, for example configuration.GetSection(\"{DataStoreOptions.SectionName}\").");
        }
    }

    /// <summary>Reads plain seconds (<c>30</c>, <c>0.5</c>) or a TimeSpan (<c>00:00:30</c>), as the tool's <c>--timeout</c> does.</summary>
    internal static TimeSpan ParseDuration(string text, string key)
    {
        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds))
        {
            return double.IsFinite(seconds) && Math.Abs(seconds) <= TimeSpan.MaxValue.TotalSeconds
                ? TimeSpan.FromSeconds(seconds)
                : throw Unreadable(key, text, "a number of seconds or a duration such as 00:00:30");
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out var span)
            ? span
            : throw Unreadable(key, text, "a number of seconds or a duration such as 00:00:30");
    }

    private static T ParseEnum<T>(string text, string key)
        where T : struct, Enum
    {
        // Names only: a number would bind to whatever value happens to carry it.
        var name = text.Trim();
        if (!long.TryParse(name, NumberStyles.Integer, CultureInfo.InvariantCulture, out _)
            && Enum.TryParse<T>(name, ignoreCase: true, out var value) && Enum.IsDefined(value))
        {
            return value;
        }

        throw Unreadable(key, text, $"one of {string.Join(", ", Enum.GetNames<T>())}");
    }

    private static void Set(IConfiguration section, string key, List<(string Setting, string Message)> problems, Action<string> set)
    {
        if (section[key] is { } text)
        {
            try
            {
                set(text);
            }
            catch (InvalidOperationException e)
            {
                problems.Add((key, e.Message));
            }
        }
    }

    private static void AddUnknownKeys(IConfiguration section, string where, List<(string Setting, string Message)> problems)
    {
        var unknown = section.GetChildren()
            .Select(child => child.Key)
            .Where(key => !Known.Contains(key, StringComparer.OrdinalIgnoreCase))
            .ToList();
        if (unknown.Count > 0)
        {
            problems.Add((unknown[0],
                $"The DataStore configuration section '{where}' holds {string.Join(", ", unknown.Take(5).Select(key => $"'{key}'"))}" +
                $"{(unknown.Count > 5 ? $" and {unknown.Count - 5} more keys" : "")}, which DataStore does not know; " +
                $"its settings are {string.Join(", ", Known)}. Check the spelling, or that the section is the store's own."));
        }
    }

    private static InvalidOperationException Unreadable(string key, string text, string expected) =>
        new($"The DataStore setting {key} = '{text}' cannot be read: expected {expected}.");
}
