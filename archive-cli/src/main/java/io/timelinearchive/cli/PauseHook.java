package io.timelinearchive.cli;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.Phase;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

/**
 * A test hook, off unless the system property {@value #PROPERTY} names a phase ({@code WRITE},
 * {@code DELETE_PENDING}, ...): on entering that phase the run says so on standard error and waits
 * for a line, or the end, on standard input. The reliability suite pauses a lock holder this way at
 * a precise point, as a long GC pause or a suspended VM would, to see it give up once it resumes
 * past its lease; a signal cannot be timed that precisely.
 */
final class PauseHook implements ArchiveListener {
  static final String PROPERTY = "timeline-archive.test.pause-before";

  private final ArchiveListener next;
  private final Phase pauseBefore;
  private final PrintWriter err;
  private final InputStream in;

  PauseHook(ArchiveListener next, Phase pauseBefore, PrintWriter err, InputStream in) {
    this.next = requireNonNull(next, "next is null");
    this.pauseBefore = requireNonNull(pauseBefore, "pauseBefore is null");
    this.err = requireNonNull(err, "err is null");
    this.in = requireNonNull(in, "in is null");
  }

  /** {@code listener} itself unless the property is set; a bad phase name is a usage error. */
  static ArchiveListener wrap(ArchiveListener listener, PrintWriter err) {
    Optional<Phase> phase = phase(System.getProperty(PROPERTY));
    return phase.isEmpty() ? listener : new PauseHook(listener, phase.get(), err, System.in);
  }

  static Optional<Phase> phase(String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Phase.valueOf(value.strip().toUpperCase(Locale.ROOT).replace('-', '_')));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "system property " + PROPERTY + ": no phase '" + value + "'; one of " + phases(), e);
    }
  }

  private static String phases() {
    return java.util.Arrays.toString(Phase.values());
  }

  @Override
  public void onProgress(Phase phase, long done, long total) throws IOException {
    next.onProgress(phase, done, total);
  }

  @Override
  public void onPhase(Phase phase) throws IOException {
    next.onPhase(phase);
    if (phase != pauseBefore) {
      return;
    }
    err.println("paused before " + phase.name().toLowerCase(Locale.ROOT).replace('_', ' '));
    err.flush();
    int b;
    do {
      b = in.read();
    } while (b >= 0 && b != '\n');
  }
}
