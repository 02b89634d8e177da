using Microsoft.Extensions.Options;

namespace DataStore.Configuration;

/// <summary>
/// Validates one registration's <see cref="DataStoreOptions"/>, reporting every bad setting with where it came from: the
/// values its configuration section holds that could not be read, then every setting <see cref="DataStoreOptions"/> refuses.
/// </summary>
internal sealed class DataStoreOptionsValidator(string registration, string source, DataStoreBinding? binding) : IValidateOptions<DataStoreOptions>
{
    public ValidateOptionsResult Validate(string? name, DataStoreOptions options)
    {
        if (!string.Equals(name ?? Options.DefaultName, registration, StringComparison.Ordinal))
        {
            return ValidateOptionsResult.Skip;
        }

        var store = registration.Length == 0 ? "the DataStore" : $"the DataStore '{registration}'";
        var unreadable = binding?.ProblemsOf(options).ToList() ?? [];
        var problems = unreadable
            .Concat(options.FindProblems().Where(problem => !unreadable.Exists(found => found.Setting == problem.Setting)))
            .Select(problem => $"{problem.Message} (setting {problem.Setting} of {store}, from {source})")
            .ToList();
        return problems.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(problems);
    }
}
