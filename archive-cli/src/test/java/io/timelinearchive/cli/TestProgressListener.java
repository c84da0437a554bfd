package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.Phase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TestProgressListener {
  @Test
  void staysQuietForTheFirstSecondThenNamesEachPhaseWithTheTimeSoFar() {
    AtomicLong now = new AtomicLong(5_000_000_000L);
    StringWriter err = new StringWriter();
    ProgressListener listener = new ProgressListener(new PrintWriter(err), now::get);

    listener.onPhase(Phase.LOCK);
    now.addAndGet(999_999_999L);
    listener.onPhase(Phase.READ);
    assertThat(err.toString()).isEmpty();

    now.addAndGet(1);
    listener.onPhase(Phase.WRITE);
    now.addAndGet(1_450_000_000L);
    listener.onPhase(Phase.DELETE_PENDING);

    assertThat(err.toString().lines()).containsExactly("[1.0s] write", "[2.5s] delete pending");
  }
}
