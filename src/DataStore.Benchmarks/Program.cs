// dotnet run -c Release --project src/DataStore.Benchmarks -- --filter '*'
using BenchmarkDotNet.Running;

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
