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
    /// <exception cref="InvalidOperationException">The section is the root configuration, holds an unknown key, or a value cannot be read; the message names the key.</exception>
    public static void Bind(IConfiguration section, DataStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(section);
        ArgumentNullException.ThrowIfNull(options);
        ThrowIfRoot(section);
        var where = ((IConfigurationSection)section).Path;
        ThrowIfUnknownKeys(section, where);
        if (section["Path"] is { } path)
        {
            options.Path = path;
        }

        if (section["Backend"] is { } backend)
        {
            options.Backend = string.IsNullOrEmpty(backend) ? null : ParseEnum<StoreBackend>(backend, $"{where}:Backend");
        }

        if (section["Durability"] is { } durability)
        {
            options.Durability = string.IsNullOrEmpty(durability) ? null : ParseEnum<Durability>(durability, $"{where}:Durability");
        }

        if (section["Timeout"] is { } timeout)
        {
            options.Timeout = ParseDuration(timeout, $"{where}:Timeout");
        }

        if (section["SyncInterval"] is { } interval)
        {
            options.SyncInterval = ParseDuration(interval, $"{where}:SyncInterval");
        }

        if (section["CreateIfMissing"] is { } create)
        {
            options.CreateIfMissing = bool.TryParse(create, out var value)
                ? value
                : throw Unreadable($"{where}:CreateIfMissing", create, "true or false");
        }

        if (section["ChangeFeed"] is { } feed)
        {
            options.ChangeFeed = bool.TryParse(feed, out var value) ? value : throw Unreadable($"{where}:ChangeFeed", feed, "true or false");
        }

        if (section["ChangeFeedRetention"] is { } retention)
        {
            options.ChangeFeedRetention = int.TryParse(retention, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var value)
                ? value
                : throw Unreadable($"{where}:ChangeFeedRetention", retention, "a number of commits");
        }
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

    private static void ThrowIfUnknownKeys(IConfiguration section, string where)
    {
        var unknown = section.GetChildren()
            .Select(child => child.Key)
            .Where(key => !Known.Contains(key, StringComparer.OrdinalIgnoreCase))
            .ToList();
        if (unknown.Count > 0)
        {
            throw new InvalidOperationException(
                $"The DataStore configuration section '{where}' holds {string.Join(", ", unknown.Take(5).Select(key => $"'{key}'"))}" +
                $"{(unknown.Count > 5 ? $" and {unknown.Count - 5} more keys" : "")}, which DataStore does not know; " +
                $"its settings are {string.Join(", ", Known)}. Check the spelling, or that the section is the store's own.");
        }
    }

    private static InvalidOperationException Unreadable(string key, string text, string expected) =>
        new($"The DataStore setting {key} = '{text}' cannot be read: expected {expected}.");
}
