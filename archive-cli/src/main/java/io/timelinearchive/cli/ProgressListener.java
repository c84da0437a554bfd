package io.timelinearchive.cli;

import io.timelinearchive.archive.ArchiveListener;
import java.io.PrintWriter;
import java.util.Locale;

/** Reports phases on standard error once a run has taken more than a second. */
final class ProgressListener implements ArchiveListener {
  private static final long QUIET_NANOS = 1_000_000_000L;
  private final PrintWriter err;
  private final long start = System.nanoTime();

  ProgressListener(PrintWriter err) {
    this.err = err;
  }

  @Override
  public void onPhase(Phase phase) {
    long elapsed = System.nanoTime() - start;
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
