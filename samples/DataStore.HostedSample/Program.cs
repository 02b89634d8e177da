// A Generic Host app as a mod manager would write it: a writable state store and a catalogue store, both keyed,
// both from appsettings.json (override a setting with --Stores:State:Path=DIR or STORES__STATE__PATH), opened
// when the host starts, checked by a health check and counted on the DataStore meter.
using DataStore;
using DataStore.HostedSample;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

var builder = Host.CreateApplicationBuilder(args);
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
catch (Exception e) when (e is DataStoreException or OptionsValidationException or InvalidOperationException)
{
    // A bad setting or a store that cannot be opened fails the start with its own message: say it and exit.
    Console.Error.WriteLine($"error: {e.Message}");
    return 1;
}
