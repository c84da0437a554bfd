package io.timelinearchive.cli;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.Phase;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Reports a long run on standard error: each phase once the run has taken more than a second, and
 * within a phase the count so far and its rate ({@code delete completed 4,000/8,962 (1,210/s)}), at
 * most a line a second. A quick run stays silent, so scripts reading standard error see only errors
 * and warnings.
 */
final class ProgressListener implements ArchiveListener {
  private static final long SECOND_NANOS = 1_000_000_000L;
  private final PrintWriter err;
  private final LongSupplier nanoTime;
  private final long start;
  private long lastLine;
  private long phaseStart;

  /** Reports as {@code option} says: on a terminal, or wherever {@code --progress} asks. */
  static ArchiveListener of(ProgressOption option, PrintWriter err) {
    return option.enabled() ? new ProgressListener(err, System::nanoTime) : ArchiveListener.NONE;
  }

  ProgressListener(PrintWriter err, LongSupplier nanoTime) {
    this.err = requireNonNull(err, "err is null");
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.start = nanoTime.getAsLong();
    this.lastLine = start;
    this.phaseStart = start;
  }

  @Override
  public void onPhase(Phase phase) {
    long now = nanoTime.getAsLong();
    phaseStart = now;
    if (now - start < SECOND_NANOS) {
      return;
    }
    print(now, String.format(Locale.ROOT, "[%.1fs] %s", (now - start) / 1e9, name(phase)));
  }

  @Override
  public void onProgress(Phase phase, long done, long total) {
    long now = nanoTime.getAsLong();
    if (now - start < SECOND_NANOS || now - lastLine < SECOND_NANOS) {
      return;
    }
    long elapsed = Math.max(1, now - phaseStart);
    long perSecond = Math.round(done * 1e9 / elapsed);
    print(
        now, String.format(Locale.ROOT, "%s %,d/%,d (%,d/s)", name(phase), done, total, perSecond));
  }

  private void print(long now, String line) {
    lastLine = now;
    err.println(line);
    err.flush();
  }

  private static String name(Phase phase) {
    return phase.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
