#:project ../src/DataStore.RocksDb/DataStore.RocksDb.csproj
#:property PublishAot=false

// Builds a store larger than 4 GiB on one backend and reads every value back after reopening it: the "no 4 GB limit"
// driver of ADR 0018, as a documented command (minutes and gigabytes of disk, so not a CI test):
//   dotnet run scripts/large-store-check.cs -- BACKEND DIRECTORY [GIB]
// Writes GIB (4.5 unless given) of 16 MiB values under keys big/00000, big/00001, ... (Relaxed), closes the store,
// reopens it, counts the keys with a keys-only scan, reads each value back and compares it byte for byte, and prints
// one markdown row: backend, values, bytes, size on disk, write and read-back times.
using System.Diagnostics;
using System.Text;
using DataStore;

if (args.Length < 2 || !Enum.TryParse<StoreBackend>(args[0], out var backend))
{
    Console.Error.WriteLine("usage: dotnet run scripts/large-store-check.cs -- BACKEND DIRECTORY [GIB]");
    return 2;
}

var directory = Path.GetFullPath(args[1]);
var gib = args.Length > 2 ? double.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture) : 4.5;
const int ValueSize = 16 << 20;
var count = (int)Math.Ceiling(gib * 1024 * 1024 * 1024 / ValueSize);
var template = new byte[ValueSize];
new Random(20261127).NextBytes(template);

byte[] Key(int i) => Encoding.ASCII.GetBytes($"big/{i:D5}");
byte[] Value(int i)
{
    BitConverter.TryWriteBytes(template, i); // every value differs in its first bytes
    BitConverter.TryWriteBytes(template.AsSpan(ValueSize - 4), ~i);
    return template;
}

var options = new DataStoreOptions { Path = directory, Backend = backend, Durability = Durability.Relaxed };
var clock = Stopwatch.StartNew();
using (var store = KeyValueStore.Open(options))
{
    for (var i = 0; i < count; i++)
    {
        store.Put(Key(i), Value(i));
    }
}

var written = clock.Elapsed;
var onDisk = new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);
clock.Restart();
var read = new byte[ValueSize];
using (var store = KeyValueStore.Open(options))
{
    var keys = 0;
    using (var cursor = store.ScanPrefix("big/"u8, keysOnly: true))
    {
        while (cursor.MoveNext())
        {
            keys++;
        }
    }

    if (keys != count)
    {
        Console.Error.WriteLine($"{backend}: {keys} keys after reopening, {count} written");
        return 1;
    }

    for (var i = 0; i < count; i++)
    {
        var length = store.Get(Key(i), read);
        if (length != ValueSize || !read.AsSpan().SequenceEqual(Value(i)))
        {
            Console.Error.WriteLine($"{backend}: big/{i:D5} read back {length} bytes, not the value written");
            return 1;
        }
    }
}

Console.WriteLine($"| {backend} | {count} x 16 MiB | {(double)count * ValueSize / (1L << 30):F2} GiB | {onDisk / (double)(1L << 30):F2} GiB | {written.TotalSeconds:F0} s | {clock.Elapsed.TotalSeconds:F0} s |");
return 0;
