using Spectre.Console;

namespace DataStore.Cli.Progress;

/// <summary>Progress as Spectre.Console bars on a terminal: one bar per phase, with counts, rate and ETA.</summary>
internal sealed class ProgressBars(ProgressContext context) : IProgress<StoreProgress>
{
    private readonly Lock _lock = new();
    private ProgressTask? _task;
    private StorePhase? _phase;
    private bool _inBytes;

    public void Report(StoreProgress value)
    {
        lock (_lock)
        {
            if (_task is null || value.Phase != _phase)
            {
                Finish();
                _phase = value.Phase;
                _inBytes = ProgressText.InBytes(value);
                _task = context.AddTask(ProgressText.Verb(value.Phase));
                _task.State.Update<bool>(RateColumn.InBytesKey, _ => _inBytes);
            }

            var (done, total) = ProgressText.Amounts(value, _inBytes);
            _task.IsIndeterminate = total is not > 0;
            _task.MaxValue = total is > 0 ? Math.Max(total.Value, done) : double.MaxValue;
            _task.Value = done;
            var counts = total is > 0 ? $"{ProgressText.Amount(done, _inBytes)}/{ProgressText.Amount(total.Value, _inBytes)}" : ProgressText.Amount(done, _inBytes);
            _task.Description = Markup.Escape($"{ProgressText.Verb(value.Phase)} {counts}{(_inBytes ? "" : " pairs")}");
        }
    }

    /// <summary>Marks the last bar finished.</summary>
    public void Complete()
    {
        lock (_lock)
        {
            Finish();
        }
    }

    private void Finish()
    {
        if (_task is { IsFinished: false } task)
        {
            task.IsIndeterminate = false;
            task.MaxValue = Math.Max(task.Value, 1);
            task.Value = task.MaxValue;
            task.StopTask();
        }
    }
}
