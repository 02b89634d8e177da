using Spectre.Console;
using Spectre.Console.Rendering;

namespace DataStore.Cli.Progress;

/// <summary>A progress column showing a task's rate in pairs or bytes per second.</summary>
internal sealed class RateColumn : ProgressColumn
{
    /// <summary>The task state key that is true when a task counts bytes.</summary>
    public const string InBytesKey = "datastore.inBytes";

    /// <summary>A rate never wraps; the bar gives up the room instead.</summary>
    protected override bool NoWrap => true;

    public override IRenderable Render(RenderOptions options, ProgressTask task, TimeSpan deltaTime)
    {
        // A finished bar keeps its average rate; Spectre's own speed would keep falling as time passes.
        var speed = task.IsFinished && task.ElapsedTime is { TotalSeconds: > 0 } elapsed ? task.Value / elapsed.TotalSeconds : task.Speed;
        return speed is > 0 ? new Text(ProgressText.Rate(speed.Value, task.State.Get<bool>(InBytesKey)), Style.Plain) : Text.Empty;
    }
}
