package io.timelinearchive.hudi;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.Phase;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code archive.callback.mode=async}: the commit returns while the archiver runs in the
 * background, one run per table at a time; commits that arrive while it runs start none and queue
 * none.
 */
class TestCallbackAsync {
  /** Headroom for a background run on a loaded machine; never reached when all goes well. */
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

  @TempDir Path tmp;

  @AfterEach
  void stopListening() {
    TableArchivals.shared().listenWith(() -> ArchiveListener.NONE);
  }

  @Test
  void commitsDoNotWaitForTheRunNorQueueAnother() throws Exception {
    Map<String, String> options = new HashMap<>(JavaClientWriter.callbackOptions());
    options.put("archive.callback.mode", "async");
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TableArchivals.shared()
        .listenWith(
            () ->
                phase -> {
                  if (phase == Phase.LIST && release.getCount() > 0) {
                    started.countDown();
                    try {
                      release.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                      throw new InterruptedIOException("interrupted while held");
                    }
                  }
                });
    Set<String> written = new TreeSet<>();
    try (JavaClientWriter writer =
        JavaClientWriter.create(tmp.resolve("t"), HoodieTableType.COPY_ON_WRITE, options)) {
      writer.commit();
      assertThat(started.await(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      // the first run is held inside its listing: these commits return without waiting for it
      for (int i = 0; i < 14; i++) {
        writer.commit();
      }
      written.addAll(HudiTimelines.completedActive(writer.metaClient()));
      CallbackCounts held = TimelineArchiveCommitCallback.counts(writer.basePath());
      assertThat(held.skippedWhileRunning()).isEqualTo(14);
      assertThat(held.runs()).isZero();
      assertThat(HudiTimelines.activeCommits(writer.metaClient())).isEqualTo(15);

      release.countDown();
      assertThat(TableArchivals.shared().awaitIdle(writer.basePath(), RUN_TIMEOUT)).isTrue();
      assertThat(TimelineArchiveCommitCallback.counts(writer.basePath()).runs())
          .as("no run was queued behind the held one")
          .isOne();

      // unheld, each commit's background run brings the timeline back within the rules
      for (int i = 0; i < 20; i++) {
        writer.commit();
        assertThat(TableArchivals.shared().awaitIdle(writer.basePath(), RUN_TIMEOUT)).isTrue();
        written.addAll(HudiTimelines.completedActive(writer.metaClient()));
        assertThat(HudiTimelines.activeCommits(writer.metaClient())).isLessThanOrEqualTo(10);
      }
      CallbackCounts counts = TimelineArchiveCommitCallback.counts(writer.basePath());
      assertThat(counts.runs()).isEqualTo(21);
      assertThat(counts.failures()).as(counts.lastFailure()).isZero();
      assertThat(Thread.getAllStackTraces().keySet())
          .filteredOn(t -> t.getName().startsWith("timeline-archive-callback-"))
          .isNotEmpty()
          .allMatch(Thread::isDaemon);
      assertThat(HudiTimelines.completedActiveAndArchived(writer.metaClient()))
          .containsAll(written);
    }
  }
}
