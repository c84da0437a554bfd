package io.timelinearchive.hudi;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.TimelineArchiver;
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
 * Hudi 0.15's Java write client writes 50 commits with Hudi's archiver off and our callback on (min
 * 5, max 10 commits): after every commit the active timeline holds no more than the rules allow,
 * and at the end Hudi's own active and archived timelines together hold every instant it wrote,
 * with details Hudi reads.
 */
class TestCallbackInJavaClient {
  // With min 5 and max 10, an archival run archives something about every sixth commit: 50 commits
  // give each table type 7 or so rounds of archival, cleaning and compaction.
  private static final int COMMITS = 50;
  private static final int MAX_COMMITS = 10;

  @TempDir Path tmp;

  @Test
  void copyOnWriteWithCleaning() throws Exception {
    writeAndCheck(HoodieTableType.COPY_ON_WRITE, Map.of());
  }

  @Test
  void mergeOnReadWithInlineCompaction() throws Exception {
    writeAndCheck(HoodieTableType.MERGE_ON_READ, Map.of());
  }

  @Test
  void withTheMetadataTable() throws Exception {
    writeAndCheck(
        HoodieTableType.COPY_ON_WRITE,
        Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.compact.max.delta.commits", "3"));
  }

  private void writeAndCheck(HoodieTableType type, Map<String, String> extra) throws Exception {
    Map<String, String> options = new HashMap<>(JavaClientWriter.callbackOptions());
    options.putAll(extra);
    Set<String> written = new TreeSet<>();
    int mostCommits = 0;
    int mostFiles = 0;
    try (JavaClientWriter writer = JavaClientWriter.create(tmp.resolve("t"), type, options)) {
      Map<String, String> archiverConfig =
          CallbackSettings.fromConfig(writer.properties()).archiverConfig();
      for (int i = 0; i < COMMITS; i++) {
        writer.commit();
        HoodieTableMetaClient metaClient = writer.metaClient();
        written.addAll(HudiTimelines.completedActive(metaClient));
        int commits = HudiTimelines.activeCommits(metaClient);
        mostCommits = Math.max(mostCommits, commits);
        mostFiles = Math.max(mostFiles, HudiTimelines.activeInstantFiles(metaClient));
        assertThat(commits)
            .as("completed commits after commit %d", i + 1)
            .isLessThanOrEqualTo(MAX_COMMITS);
        try (TimelineArchiver archiver = TimelineArchiver.open(writer.basePath(), archiverConfig)) {
          assertThat(archiver.plan().files())
              .as("left for archival after commit %d", i + 1)
              .isEmpty();
        }
      }
      CallbackCounts counts = TimelineArchiveCommitCallback.counts(writer.basePath());
      System.out.printf(
          "%s%s: %d commits, active timeline at most %d completed commits and %d instant files;"
              + " %s%n",
          type, extra.isEmpty() ? "" : " " + extra, COMMITS, mostCommits, mostFiles, counts);
      assertThat(counts.failures()).as(counts.lastFailure()).isZero();
      assertThat(counts.runs()).isEqualTo(COMMITS);
      assertThat(counts.instantsArchived()).isPositive();
      assertThat(HudiTimelines.completedActiveAndArchived(writer.metaClient()))
          .containsAll(written);
    }
    assertThat(written).hasSizeGreaterThan(COMMITS);
  }
}
