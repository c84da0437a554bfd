package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.Phase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TestProgressListener {
  private final AtomicLong now = new AtomicLong(5_000_000_000L);
  private final StringWriter err = new StringWriter();
  private final ProgressListener listener = new ProgressListener(new PrintWriter(err), now::get);

  @Test
  void staysQuietForTheFirstSecondThenNamesEachPhaseWithTheTimeSoFar() {
    listener.onPhase(Phase.LOCK);
    now.addAndGet(999_999_999L);
    listener.onPhase(Phase.READ);
    listener.onProgress(Phase.READ, 10, 20);
    assertThat(err.toString()).isEmpty();

    now.addAndGet(1);
    listener.onPhase(Phase.WRITE);
    now.addAndGet(1_450_000_000L);
    listener.onPhase(Phase.DELETE_PENDING);

    assertThat(err.toString().lines()).containsExactly("[1.0s] write", "[2.5s] delete pending");
  }

  @Test
  void reportsCountsAndTheRateSinceThePhaseBeganAtMostOnceASecond() {
    now.addAndGet(3_000_000_000L);
    listener.onPhase(Phase.DELETE_COMPLETED);
    err.getBuffer().setLength(0);

    for (int done = 1; done <= 8_962; done++) {
      // 1,000 deletes a second
      now.addAndGet(1_000_000L);
      listener.onProgress(Phase.DELETE_COMPLETED, done, 8_962);
    }

    // 8,962 deletes at 1,000/s take 9 s: a line at each whole second, never two within one
    assertThat(err.toString().lines())
        .hasSize(8)
        .startsWith(
            "delete completed 1,000/8,962 (1,000/s)", "delete completed 2,000/8,962 (1,000/s)")
        .endsWith("delete completed 8,000/8,962 (1,000/s)");
  }

  @Test
  void withoutProgressAndWithoutATerminalNothingIsReported() {
    ProgressOption off = new ProgressOption();
    ProgressOption on = new ProgressOption();
    on.progress = true;

    // tests run without a console, as scripts do
    assertThat(System.console()).isNull();
    assertThat(off.enabled()).isFalse();
    assertThat(on.enabled()).isTrue();
    assertThat(ProgressListener.of(off, new PrintWriter(err)))
        .isSameAs(io.timelinearchive.archive.ArchiveListener.NONE);
  }
}
