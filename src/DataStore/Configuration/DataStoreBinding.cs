using System.Runtime.CompilerServices;
using Microsoft.Extensions.Configuration;

namespace DataStore.Configuration;

/// <summary>
/// One registration's configuration section: binds it into each <see cref="DataStoreOptions"/> the options factory makes and
/// keeps what could not be read beside that instance, so the registration's validator reports it with every other bad setting.
/// </summary>
internal sealed class DataStoreBinding(IConfigurationSection section)
{
    private readonly ConditionalWeakTable<DataStoreOptions, List<(string Setting, string Message)>> _problems = [];

    /// <summary>Sets every readable setting of the section on <paramref name="options"/> and remembers the unreadable ones.</summary>
    public void Bind(DataStoreOptions options) => _problems.AddOrUpdate(options, DataStoreOptionsBinder.Read(section, options));

    /// <summary>The settings binding could not read into <paramref name="options"/>; a missing section when that left no Path.</summary>
    public IEnumerable<(string Setting, string Message)> ProblemsOf(DataStoreOptions options)
    {
        var problems = _problems.TryGetValue(options, out var found) ? found : [];
        if (string.IsNullOrWhiteSpace(options.Path) && options.Backend != StoreBackend.InMemory && !section.Exists())
        {
            return problems.Append(("Path",
                $"The DataStore configuration section '{section.Path}' is missing or empty, so the store has no Path. Check the section's " +
                "name, and that the configuration file is in the host's content root (where Host.CreateApplicationBuilder reads appsettings.json)."));
        }

        return problems;
    }
}
