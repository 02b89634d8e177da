using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using Microsoft.Extensions.Logging;

namespace DataStore.Tests.Diagnostics;

/// <summary>Every log message of the library is LoggerMessage-generated, with a unique, documented, non-zero event id.</summary>
public sealed class LogEventIdTests
{
    private static readonly Assembly[] Library =
    [
        typeof(KeyValueStore).Assembly,
        typeof(DataStore.Extensions.Diagnostics.DataStoreHealthCheck).Assembly,
    ];

    [Fact]
    public void Every_LoggerMessage_has_a_unique_non_zero_event_id_and_name_with_its_row_in_the_README()
    {
        var messages = Library
            .SelectMany(assembly => assembly.GetTypes())
            .SelectMany(type => type.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly))
            .Select(method => (Method: $"{method.DeclaringType!.FullName}.{method.Name}", Attribute: method.GetCustomAttribute<LoggerMessageAttribute>()))
            .Where(message => message.Attribute is not null)
            .Select(message => (message.Method, message.Attribute!.EventId, message.Attribute.EventName))
            .ToList();

        Assert.All(messages, message => Assert.True(message.EventId != 0, $"{message.Method} has event id 0"));
        Assert.All(messages, message => Assert.False(string.IsNullOrEmpty(message.EventName), $"{message.Method} has no event name"));
        var repeated = messages.GroupBy(message => message.EventId).Where(group => group.Count() > 1).Select(group => $"{group.Key}: {string.Join(", ", group.Select(m => m.Method))}");
        Assert.Empty(repeated);
        Assert.Equal(messages.Count, messages.Select(message => message.EventName).Distinct().Count());
        var readme = File.ReadAllText(Readme());
        Assert.All(messages, message => Assert.True(readme.Contains($"| {message.EventId} | `{message.EventName}`", StringComparison.Ordinal),
            $"{message.Method} (event {message.EventId}, {message.EventName}) has no row in the README's event table"));
    }

    [Fact]
    public void No_library_code_logs_through_the_LoggerExtensions_methods_which_carry_event_id_0()
    {
        var adHoc = new List<string>();
        foreach (var assembly in Library)
        {
            using var file = File.OpenRead(assembly.Location);
            using var pe = new PEReader(file);
            var metadata = pe.GetMetadataReader();
            foreach (var handle in metadata.MemberReferences)
            {
                var member = metadata.GetMemberReference(handle);
                if (member.Parent.Kind == HandleKind.TypeReference)
                {
                    var type = metadata.GetTypeReference((TypeReferenceHandle)member.Parent);
                    if (metadata.GetString(type.Namespace) == "Microsoft.Extensions.Logging" && metadata.GetString(type.Name) == "LoggerExtensions")
                    {
                        adHoc.Add($"{assembly.GetName().Name}: LoggerExtensions.{metadata.GetString(member.Name)}");
                    }
                }
            }
        }

        Assert.Empty(adHoc);
    }

    // The README at the repository's root, found above the test assembly's directory.
    private static string Readme()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "DataStore.sln")))
            {
                return Path.Combine(directory.FullName, "README.md");
            }
        }

        throw new InvalidOperationException($"No DataStore.sln above {AppContext.BaseDirectory}.");
    }
}
