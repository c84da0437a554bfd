package io.timelinearchive.cli;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.Phase;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Reports phases on standard error once a run has taken more than a second: a quick run stays
 * silent, so scripts reading standard error see only errors and warnings.
 */
final class ProgressListener implements ArchiveListener {
  private static final long QUIET_NANOS = 1_000_000_000L;
  private final PrintWriter err;
  private final LongSupplier nanoTime;
  private final long start;

  ProgressListener(PrintWriter err) {
    this(err, System::nanoTime);
  }

  ProgressListener(PrintWriter err, LongSupplier nanoTime) {
    this.err = requireNonNull(err, "err is null");
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.start = nanoTime.getAsLong();
  }

  @Override
  public void onPhase(Phase phase) {
    long elapsed = nanoTime.getAsLong() - start;
    if (elapsed < QUIET_NANOS) {
      return;
    }
    err.printf(
        Locale.ROOT,
        "[%.1fs] %s%n",
        elapsed / 1e9,
        phase.name().toLowerCase(Locale.ROOT).replace('_', ' '));
    err.flush();
  }
}
