// The child process that the multi-process, crash and permission tests start. Each command opens the store
// named by its arguments, does one job, prints one line per acknowledged step, and exits 0 on success,
// 1 when a check fails, 3 on a DataStoreException (printing "ERROR <Cause> <message>").
using DataStore;
using DataStore.TestHost;

try
{
    return Commands.Run(args);
}
catch (DataStoreException e)
{
    Console.WriteLine($"ERROR {e.Cause} {e.GetType().Name}: {e.Message}");
    return 3;
}
