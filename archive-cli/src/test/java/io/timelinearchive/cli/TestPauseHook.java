package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.Phase;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TestPauseHook {
  @Test
  void waitsOnTheChosenPhaseUntilALineArrivesAndPassesEveryPhaseOn() throws Exception {
    List<Phase> seen = new CopyOnWriteArrayList<>();
    StringWriter err = new StringWriter();
    PipedOutputStream resume = new PipedOutputStream();
    PauseHook hook =
        new PauseHook(
            seen::add, Phase.DELETE_PENDING, new PrintWriter(err), new PipedInputStream(resume));
    hook.onPhase(Phase.WRITE);

    Thread run =
        new Thread(
            () -> {
              try {
                hook.onPhase(Phase.DELETE_PENDING);
                seen.add(Phase.DELETE_COMPLETED);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    run.start();
    run.join(300);
    assertThat(run.isAlive()).as("paused until standard input has a line").isTrue();
    assertThat(seen).containsExactly(Phase.WRITE, Phase.DELETE_PENDING);

    resume.write("go on\n".getBytes(StandardCharsets.US_ASCII));
    resume.flush();
    run.join(TimeUnit.SECONDS.toMillis(30));

    assertThat(run.isAlive()).isFalse();
    assertThat(seen).containsExactly(Phase.WRITE, Phase.DELETE_PENDING, Phase.DELETE_COMPLETED);
    assertThat(err.toString().lines()).containsExactly("paused before delete pending");
  }

  @Test
  void theEndOfStandardInputAlsoResumes() throws Exception {
    List<Phase> seen = new CopyOnWriteArrayList<>();
    PauseHook hook =
        new PauseHook(
            seen::add,
            Phase.WRITE,
            new PrintWriter(new StringWriter()),
            java.io.InputStream.nullInputStream());

    hook.onPhase(Phase.WRITE);

    assertThat(seen).containsExactly(Phase.WRITE);
  }

  @Test
  void thePhaseIsNamedEitherWay() {
    assertThat(PauseHook.phase(null)).isEmpty();
    assertThat(PauseHook.phase("")).isEmpty();
    assertThat(PauseHook.phase("DELETE_PENDING")).contains(Phase.DELETE_PENDING);
    assertThat(PauseHook.phase("delete-pending")).contains(Phase.DELETE_PENDING);
    assertThatThrownBy(() -> PauseHook.phase("deleting"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(PauseHook.PROPERTY)
        .hasMessageContaining("'deleting'")
        .hasMessageContaining("DELETE_COMPLETED");
  }
}
