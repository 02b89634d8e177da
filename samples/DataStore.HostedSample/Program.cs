// A Generic Host app as a mod manager would write it: a writable state store and a catalogue store, both keyed,
// both from appsettings.json (override a setting with --Stores:State:Path=DIR or STORES__STATE__PATH), opened
// when the host starts, checked by a health check and counted on the DataStore meter.
// Run it from anywhere: dotnet run --project samples/DataStore.HostedSample
using DataStore;
using DataStore.HostedSample;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

// The content root is the app's own folder, as for a desktop app or a service started from elsewhere: appsettings.json is
// read from there, and a relative store Path is resolved there too, whatever the working directory.
var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.Services.AddKeyedDataStore("state", builder.Configuration.GetSection("Stores:State"));
builder.Services.AddKeyedDataStore("catalog", builder.Configuration.GetSection("Stores:Catalog"));
builder.Services.AddHealthChecks().AddDataStore("state").AddDataStore("catalog");
builder.Services.AddSingleton<OperationCounter>();
builder.Services.AddHostedService<ModCatalogWorker>();

using var host = builder.Build();
try
{
    await host.RunAsync();
    return 0;
}
catch (Exception e) when (e is DataStoreException or OptionsValidationException or AggregateException)
{
    // A bad setting (an AggregateException when several stores have them) or a store that cannot be opened fails the
    // start with its own message: say it and exit.
    foreach (var error in e is AggregateException all ? all.InnerExceptions : [e])
    {
        Console.Error.WriteLine($"error: {error.Message}");
    }

    return 1;
}
