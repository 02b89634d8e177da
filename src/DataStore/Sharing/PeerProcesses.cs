namespace DataStore.Sharing;

/// <summary>
/// The processes whose clients are connected to this owner, by process id (a client keeps several connections, and a
/// second open in the owner's own process is a client too). Where the OS does not tell a peer's process id, each such
/// connection counts as a process of its own.
/// </summary>
internal sealed class PeerProcesses
{
    private readonly Dictionary<int, int> _connections = [];
    private int _unknown;

    /// <summary>Records a connection of <paramref name="processId"/> (null: unknown) and returns the id it is counted under.</summary>
    public int Connected(int? processId)
    {
        lock (_connections)
        {
            var id = processId ?? --_unknown;
            _connections[id] = _connections.GetValueOrDefault(id) + 1;
            return id;
        }
    }

    /// <summary>Forgets one connection counted under <paramref name="id"/>.</summary>
    public void Disconnected(int id)
    {
        lock (_connections)
        {
            if (_connections.TryGetValue(id, out var count) && count > 1)
            {
                _connections[id] = count - 1;
            }
            else
            {
                _connections.Remove(id);
            }
        }
    }

    /// <summary>The processes that use the store besides <paramref name="requester"/>: every connected one and the owner itself.</summary>
    public IReadOnlyList<int> OtherThan(int requester)
    {
        lock (_connections)
        {
            return _connections.Keys.Append(Environment.ProcessId).Where(id => id != requester).Distinct().Order().ToList();
        }
    }
}
