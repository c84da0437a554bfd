package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 16, the seed's version: a table in Hudi 0.5's layout (timeline layout 0, written by Hudi
 * 0.5.3's own timeline classes: one file per instant, a commit in progress as the lone {@code
 * T.inflight}, a clean in progress as {@code T.clean.inflight}, {@code hoodie.archivelog.folder=}
 * so that the archive sits in {@code .hoodie/}) is archived by Hudi 0.15's own archiver on one copy
 * and by ours on another: both remove the same instant files, the ones our plan names.
 */
class TestLayoutZeroSameSelectionAsHudi {
  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void ourArchiverRemovesWhatHudi015RemovesFromALayoutZeroTable(HoodieTableType type)
      throws Exception {
    Path hudiCopy = Hudi05Table.write(tmp.resolve("hudi"), type.name(), 0);
    Path ourCopy = tmp.resolve("ours");
    HudiFixtures.copyTree(hudiCopy, ourCopy);
    String hudiUri = HudiTable.uri(hudiCopy);
    String ourUri = HudiTable.uri(ourCopy);
    Set<String> before = Ours.instantFiles(hudiUri, Map.of()).keySet();
    // layout 0: one file per instant, and the pending ones under their 0.5 names
    assertThat(before).noneMatch(n -> n.endsWith(".requested") && !n.contains(".compaction."));
    if (type == HoodieTableType.COPY_ON_WRITE) {
      assertThat(before)
          .contains(Hudi05Table.t(26) + ".inflight", Hudi05Table.t(25) + ".clean.inflight");
    }

    ArchivalPlan plan = Ours.plan(ourUri, SETTINGS);
    try (HudiTable hudi = HudiTable.open(hudiCopy, type, SETTINGS)) {
      assertThat(hudi.archiveWithHudi()).as("Hudi 0.15's archiver succeeds").isTrue();
    }
    Ours.archive(ourUri, SETTINGS);

    Set<String> removedByHudi = new TreeSet<>(before);
    removedByHudi.removeAll(Ours.instantFiles(hudiUri, Map.of()).keySet());
    Set<String> removedByUs = new TreeSet<>(before);
    removedByUs.removeAll(Ours.instantFiles(ourUri, Map.of()).keySet());
    Set<String> planned = new TreeSet<>();
    plan.files().stream().map(TimelineInstant::fileName).forEach(planned::add);

    assertThat(removedByHudi).as("Hudi 0.15 archived something").hasSizeGreaterThan(4);
    assertThat(planned).as("our plan vs what Hudi removed").isEqualTo(removedByHudi);
    assertThat(removedByUs).as("what we removed vs what Hudi removed").isEqualTo(removedByHudi);
    // the savepoint is newer than what min commits keeps
    assertThat(plan.barrier().kind()).isEqualTo(Barrier.Kind.MIN_COMMITS);
    // both archives sit in .hoodie/ and hold what was removed
    assertThat(
            Ours.read(hudiUri, Map.of()).instants().stream()
                .map(a -> a.instant().fileName())
                .toList())
        .as("Hudi 0.15's archive, in .hoodie/")
        .containsExactlyInAnyOrderElementsOf(removedByHudi);
    assertThat(
            Ours.read(ourUri, Map.of()).instants().stream()
                .map(a -> a.instant().fileName())
                .toList())
        .as("our archive, in .hoodie/")
        .containsExactlyInAnyOrderElementsOf(removedByUs);
    assertThat(Ours.read(ourUri, Map.of()).folder().path()).endsWith(".hoodie");
    List<String> pending = before.stream().filter(n -> !n.matches("\\d+\\.\\w+")).toList();
    assertThat(removedByUs).as("pending files stay").doesNotContainAnyElementsOf(pending);
  }
}
