package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, part 2: pointed at a metadata table ({@code TABLE/.hoodie/metadata}), ours archives by
 * the rules Hudi 0.15 gives the metadata table's writer, so it removes exactly what Hudi's archiver
 * of the metadata table removes, and the data table's archival is not blocked afterwards.
 */
class TestMetadataTableAsHudi {
  @TempDir Path tmp;

  @Test
  void aMetadataTableIsArchivedByHudisMetadataTableRules() throws Exception {
    Map<String, String> writing = new LinkedHashMap<>();
    writing.put("hoodie.metadata.enable", "true");
    Map<String, String> archiving = new LinkedHashMap<>(writing);
    archiving.put("hoodie.keep.min.commits", "5");
    archiving.put("hoodie.keep.max.commits", "10");
    archiving.put("hoodie.cleaner.commits.retained", "2");
    Path hudiCopy = tmp.resolve("hudi");
    try (HudiTable table = HudiTable.create(hudiCopy, HoodieTableType.COPY_ON_WRITE, writing)) {
      for (int i = 0; i < 45; i++) {
        table.commit();
      }
    }
    // the data table archived by Hudi: its metadata table may now be archived up to the data
    // table's new earliest commit (Hudi's writer would have done so at its next commit)
    try (HudiTable table = HudiTable.open(hudiCopy, HoodieTableType.COPY_ON_WRITE, archiving)) {
      assertThat(table.archiveWithHudi()).isTrue();
    }
    Path ourCopy = tmp.resolve("ours");
    HudiFixtures.copyTree(hudiCopy, ourCopy);
    String hudiMetadata = HudiTable.uri(hudiCopy) + "/.hoodie/metadata";
    String ourMetadata = HudiTable.uri(ourCopy) + "/.hoodie/metadata";
    Set<String> before = Ours.instantFiles(ourMetadata, Map.of()).keySet();

    ArchivalPlan plan = Ours.plan(ourMetadata, archiving);
    List<String> rules;
    try (TimelineArchiver archiver = TimelineArchiver.open(ourMetadata, archiving)) {
      rules = archiver.rules();
    }
    try (HudiTable table = HudiTable.open(hudiCopy, HoodieTableType.COPY_ON_WRITE, archiving)) {
      assertThat(table.archiveMetadataTableWithHudi()).isTrue();
    }
    Ours.archive(ourMetadata, archiving);

    Set<String> removedByHudi = removed(before, hudiMetadata);
    Set<String> planned = new TreeSet<>();
    plan.files().stream().map(TimelineInstant::fileName).forEach(planned::add);
    assertThat(removedByHudi).as("Hudi archived the metadata table").isNotEmpty();
    assertThat(planned).as("our plan vs what Hudi removed").isEqualTo(removedByHudi);
    assertThat(removed(before, ourMetadata))
        .as("what we removed vs what Hudi removed")
        .isEqualTo(removedByHudi);
    assertThat(rules).anyMatch(r -> r.startsWith("metadata table: archived by the rules Hudi"));

    // after our archival of its metadata table the data table carries on: more commits, then
    // Hudi's archiver and ours on two copies of it remove the same files
    try (HudiTable table = HudiTable.open(ourCopy, HoodieTableType.COPY_ON_WRITE, writing)) {
      for (int i = 0; i < 12; i++) {
        table.commit();
      }
    }
    Path secondCopy = tmp.resolve("ours-then-hudi");
    HudiFixtures.copyTree(ourCopy, secondCopy);
    Set<String> dataBefore = Ours.instantFiles(HudiTable.uri(ourCopy), Map.of()).keySet();
    ArchivalPlan dataPlan = Ours.plan(HudiTable.uri(ourCopy), archiving);
    try (HudiTable table = HudiTable.open(secondCopy, HoodieTableType.COPY_ON_WRITE, archiving)) {
      assertThat(table.archiveWithHudi()).isTrue();
    }
    Ours.archive(HudiTable.uri(ourCopy), archiving);
    Set<String> dataByHudi = removed(dataBefore, HudiTable.uri(secondCopy));
    assertThat(dataPlan.barrier().kind()).isNotEqualTo(Barrier.Kind.METADATA_TABLE);
    assertThat(dataByHudi).as("Hudi archived the data table").isNotEmpty();
    assertThat(removed(dataBefore, HudiTable.uri(ourCopy)))
        .as("%s", dataPlan.barriers())
        .isEqualTo(dataByHudi);
  }

  private static Set<String> removed(Set<String> before, String tableUri) throws Exception {
    Set<String> removed = new TreeSet<>(before);
    removed.removeAll(Ours.instantFiles(tableUri, Map.of()).keySet());
    return removed;
  }
}
