package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hudi.avro.model.HoodieActionInstant;
import org.apache.hudi.avro.model.HoodieCleanerPlan;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.timeline.TimelineMetadataUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lengthened timeline is one Hudi reads as its own: each copy's commit names the previous copy
 * as its files' previous commit, and each copy's clean plan (Avro, read with Hudi's own reader)
 * keeps the commit as many instants back as the original did.
 */
class TestTimelineLengthener {
  private static final String C1 = "20240101000000000";
  private static final String C2 = "20240101000010000";
  private static final String CLEAN = "20240101000010500";

  @TempDir Path table;

  @Test
  void copiesTheLastCommitAndCleanWithTheirReferencesShifted() throws Exception {
    Path meta = Files.createDirectories(table.resolve(".hoodie"));
    writeCommit(meta, C1, "00000000000000000");
    writeCommit(meta, C2, C1);
    Files.write(meta.resolve(CLEAN + ".clean.requested"), cleanPlan(C1));
    Files.write(meta.resolve(CLEAN + ".clean.inflight"), cleanPlan(C1));
    Files.write(meta.resolve(CLEAN + ".clean"), new byte[0]);

    int files = TimelineLengthener.lengthen(table, 40);

    assertThat(files).isEqualTo(9 + 6 * 6);
    List<String> times = new ArrayList<>(TimelineLengthener.instantFiles(meta).keySet());
    assertThat(times).hasSize(3 + 2 * 6).startsWith(C1, C2, CLEAN).isSorted();
    assertThat(TimelineLengthener.instantFiles(meta).values()).allMatch(names -> names.size() == 3);
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < times.size(); i++) {
      position.put(times.get(i), i);
    }
    for (int i = 3; i < times.size(); i += 2) {
      String commit = times.get(i);
      String clean = times.get(i + 1);
      assertThat(meta.resolve(commit + ".commit.requested")).isEmptyFile();
      HoodieCommitMetadata metadata =
          HoodieCommitMetadata.fromBytes(
              Files.readAllBytes(meta.resolve(commit + ".commit")), HoodieCommitMetadata.class);
      // the original named the commit two instants back (C1 from C2)
      assertThat(metadata.getWriteStats().get(0).getPrevCommit()).isEqualTo(times.get(i - 2));
      assertThat(metadata.getWriteStats().get(0).getPath()).endsWith("_" + commit + ".parquet");
      HoodieCleanerPlan plan =
          TimelineMetadataUtils.deserializeCleanerPlan(
              Files.readAllBytes(meta.resolve(clean + ".clean.requested")));
      String retained = plan.getEarliestInstantToRetain().getTimestamp();
      assertThat(position.get(retained)).isEqualTo(i - 2);
      assertThat(Files.getLastModifiedTime(meta.resolve(commit + ".commit")))
          .isGreaterThan(Files.getLastModifiedTime(meta.resolve(commit + ".inflight")));
    }
  }

  @Test
  void refusesATimelineThatDoesNotEndWithACommitAndAClean() throws Exception {
    Path meta = Files.createDirectories(table.resolve(".hoodie"));
    writeCommit(meta, C1, "00000000000000000");
    writeCommit(meta, C2, C1);

    assertThatThrownBy(() -> TimelineLengthener.lengthen(table, 40))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not end with a commit and a clean");
  }

  private static void writeCommit(Path meta, String time, String previous) throws Exception {
    Files.write(meta.resolve(time + ".commit.requested"), new byte[0]);
    Files.writeString(meta.resolve(time + ".inflight"), "{\"operationType\":\"UPSERT\"}", UTF_8);
    Files.writeString(
        meta.resolve(time + ".commit"),
        "{\"partitionToWriteStats\":{\"p0\":[{\"fileId\":\"f1-0\",\"path\":\"p0/f1-0_0-1-0_"
            + time
            + ".parquet\",\"prevCommit\":\""
            + previous
            + "\",\"numWrites\":4}]},\"compacted\":false,\"extraMetadata\":{},"
            + "\"operationType\":\"UPSERT\"}",
        UTF_8);
  }

  private static byte[] cleanPlan(String retain) throws Exception {
    HoodieCleanerPlan plan =
        HoodieCleanerPlan.newBuilder()
            .setEarliestInstantToRetain(
                HoodieActionInstant.newBuilder()
                    .setTimestamp(retain)
                    .setAction("commit")
                    .setState("COMPLETED")
                    .build())
            .setLastCompletedCommitTimestamp(C2)
            .setPolicy("KEEP_LATEST_COMMITS")
            .setFilesToBeDeletedPerPartition(new HashMap<>())
            .setVersion(2)
            .setFilePathsToBeDeletedPerPartition(new HashMap<>())
            .setPartitionsToBeDeleted(new ArrayList<>())
            .build();
    return TimelineMetadataUtils.serializeCleanerPlan(plan).get();
  }
}
