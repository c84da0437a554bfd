package io.timelinearchive.hudi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The callback never fails a commit by surprise: a failing archival (here a storage fault: the
 * archive folder cannot be written) leaves every commit made and the table intact, is counted, and
 * fails the write only when {@code archive.callback.fail-on-error=true}; with Hudi's own archiver
 * on it stays idle.
 */
class TestCallbackFailures {
  private static final int COMMITS = 14;

  @TempDir Path tmp;

  @Test
  void aFailingArchivalLeavesEveryCommitMade() throws Exception {
    Path dir = tmp.resolve("t");
    try (JavaClientWriter writer =
        JavaClientWriter.create(dir, HoodieTableType.COPY_ON_WRITE, options(Map.of()))) {
      Set<String> written = new TreeSet<>();
      breakArchiveFolder(dir);
      for (int i = 0; i < COMMITS; i++) {
        writer.commit();
        written.addAll(HudiTimelines.completedActive(writer.metaClient()));
      }
      HoodieTableMetaClient metaClient = writer.metaClient();
      assertThat(HudiTimelines.activeCommits(metaClient))
          .as("every commit made, none archived")
          .isEqualTo(COMMITS);
      assertThat(metaClient.getActiveTimeline().getCommitsTimeline().filterInflights().empty())
          .isTrue();
      CallbackCounts counts = TimelineArchiveCommitCallback.counts(writer.basePath());
      assertThat(counts.failures()).isEqualTo(COMMITS);
      assertThat(counts.runs()).isZero();
      assertThat(counts.lastFailure()).contains(".hoodie/archived");

      // the fault mended, the next commit archives what the failed runs left, and nothing is lost
      repairArchiveFolder(dir);
      writer.commit();
      written.addAll(HudiTimelines.completedActive(writer.metaClient()));
      assertThat(HudiTimelines.activeCommits(writer.metaClient())).isLessThanOrEqualTo(10);
      assertThat(HudiTimelines.completedActiveAndArchived(writer.metaClient()))
          .containsAll(written);
      assertThat(TimelineArchiveCommitCallback.counts(writer.basePath()).runs()).isOne();
    }
  }

  @Test
  void failOnErrorFailsTheWrite() throws Exception {
    Path dir = tmp.resolve("t");
    try (JavaClientWriter writer =
        JavaClientWriter.create(
            dir,
            HoodieTableType.COPY_ON_WRITE,
            options(Map.of("archive.callback.fail-on-error", "true")))) {
      breakArchiveFolder(dir);
      assertThatThrownBy(writer::commit)
          .hasStackTraceContaining("timeline-archive could not archive " + writer.basePath());
      assertThat(TimelineArchiveCommitCallback.counts(writer.basePath()).failures()).isOne();
    }
  }

  @Test
  void withHudisArchiverOnTheCallbackStaysIdle() throws Exception {
    Map<String, String> options = options(Map.of());
    options.remove("hoodie.archive.automatic");
    try (JavaClientWriter writer =
        JavaClientWriter.create(tmp.resolve("t"), HoodieTableType.COPY_ON_WRITE, options)) {
      for (int i = 0; i < 3; i++) {
        writer.commit();
      }
      CallbackCounts counts = TimelineArchiveCommitCallback.counts(writer.basePath());
      assertThat(counts.skippedHudiArchives()).isEqualTo(3);
      assertThat(counts.runs()).isZero();
      assertThat(counts.failures()).isZero();
    }
  }

  @Test
  void aBadSettingIsNamedAndCountedAndFailsTheWriteOnlyWhenAskedTo() throws Exception {
    Path dir = tmp.resolve("t");
    try (JavaClientWriter writer =
        JavaClientWriter.create(
            dir,
            HoodieTableType.COPY_ON_WRITE,
            options(Map.of("archive.callback.mode", "later")))) {
      writer.commit();
      CallbackCounts counts = TimelineArchiveCommitCallback.counts(writer.basePath());
      assertThat(counts.failures()).isOne();
      assertThat(counts.lastFailure()).contains("archive.callback.mode='later'");
    }
    TimelineArchiveCommitCallback strict =
        new TimelineArchiveCommitCallback(
            Map.of("archive.callback.mdoe", "async", "archive.callback.fail-on-error", "true"));
    assertThatThrownBy(() -> strict.committed(JavaClientWriter.uri(tmp.resolve("u")), "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "unknown setting archive.callback.mdoe; did you mean archive.callback.mode?");
  }

  private static Map<String, String> options(Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(JavaClientWriter.callbackOptions());
    options.putAll(extra);
    return options;
  }

  /** A file where the archive folder goes: every write under it fails, as on a broken mount. */
  private static void breakArchiveFolder(Path table) throws Exception {
    Path archived = table.resolve(".hoodie/archived");
    if (Files.isDirectory(archived)) {
      try (var files = Files.list(archived)) {
        assertThat(files).isEmpty();
      }
      Files.delete(archived);
    }
    Files.writeString(archived, "not a folder");
  }

  private static void repairArchiveFolder(Path table) throws Exception {
    Path archived = table.resolve(".hoodie/archived");
    Files.delete(archived);
    Files.createDirectory(archived);
  }
}
