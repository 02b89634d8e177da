using DataStore.Utf8;

namespace DataStore.Tests.Api;

/// <summary>The conveniences over the span API: TryGet, span prefixes for the Enumerate methods, and the UTF-8 string helpers.</summary>
public sealed class ErgonomicsTests
{
    [Fact]
    public void TryGet_returns_the_value_or_false()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        store.Put("k"u8, "v"u8);
        Assert.True(store.TryGet("k"u8, out var value));
        Assert.Equal("v"u8.ToArray(), value);
        Assert.False(store.TryGet("absent"u8, out var missing));
        Assert.Null(missing);
    }

    [Fact]
    public void Enumerate_methods_take_utf8_literals()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        store.Put("mods/a"u8, "1"u8);
        store.Put("mods/b"u8, "2"u8);
        store.Put("other"u8, "3"u8);
        Assert.Equal(2, store.EnumeratePrefix("mods/"u8).Count());
        Assert.Equal(["mods/a"u8.ToArray(), "mods/b"u8.ToArray()], store.EnumerateKeys("mods/"u8));
        Assert.Single(store.EnumerateRange("mods/b"u8, "other"u8));
    }

    [Fact]
    public void Utf8_string_helpers_store_the_same_bytes_as_the_byte_api()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        store.Put("mods/skyüi", "5.2 ✓");
        Assert.Equal("5.2 ✓"u8.ToArray(), store.Get("mods/skyüi"u8));
        Assert.Equal("5.2 ✓", store.GetString("mods/skyüi"));
        Assert.True(store.HaveKey("mods/skyüi"));
        Assert.Equal([new("mods/skyüi", "5.2 ✓")], store.EnumeratePrefix("mods/"));
        Assert.False(store.TryGetString("absent", out _));
        store.Delete("mods/skyüi");
        Assert.Null(store.GetString("mods/skyüi"));
    }

    [Fact]
    public void A_value_that_is_not_utf8_is_an_error_not_a_replacement_character()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        store.Put("k"u8, [0xFF, 0xFE]);
        Assert.Throws<System.Text.DecoderFallbackException>(() => store.GetString("k"));
    }
}
