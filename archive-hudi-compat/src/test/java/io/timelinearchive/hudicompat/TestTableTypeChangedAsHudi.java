package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 16, part 3: a table written as merge-on-read whose {@code hoodie.table.type} a user then
 * changed to copy-on-write, and which Hudi 0.15's client went on writing as such, holds
 * deltacommits that a copy-on-write table's commits timeline leaves out. Hudi 0.15's archiver
 * neither counts nor archives them; on an identical copy our plan names, and our archiver removes,
 * exactly the instant files Hudi's removed.
 */
class TestTableTypeChangedAsHudi {
  private static final int DELTA_COMMITS = 9;
  private static final int COMMITS_AFTER_THE_CHANGE = 8;

  @TempDir Path tmp;

  @ParameterizedTest(name = "compaction every {0} delta commits (0: none)")
  @ValueSource(ints = {0, 3})
  void deltaCommitsOfTheEarlierTypeAreNeitherCountedNorArchived(int compactEvery) throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    Path hudiCopy = tmp.resolve("hudi");
    try (HudiTable mor =
        HudiTable.create(hudiCopy, HoodieTableType.MERGE_ON_READ, morSettings(compactEvery))) {
      for (int i = 0; i < DELTA_COMMITS; i++) {
        mor.commit();
      }
      mor.closeClient();
      changeTypeToCopyOnWrite(mor);
    }
    try (HudiTable cow = HudiTable.open(hudiCopy, HoodieTableType.COPY_ON_WRITE, settings)) {
      for (int i = 0; i < COMMITS_AFTER_THE_CHANGE; i++) {
        cow.commit();
      }
    }
    assertThat(Files.readString(hudiCopy.resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.type=COPY_ON_WRITE");
    Path ourCopy = tmp.resolve("ours");
    HudiFixtures.copyTree(hudiCopy, ourCopy);
    String hudiUri = HudiTable.uri(hudiCopy);
    String ourUri = HudiTable.uri(ourCopy);
    Set<String> before = Ours.instantFiles(hudiUri, Map.of()).keySet();
    assertThat(withAction(before, "deltacommit")).hasSize(DELTA_COMMITS);
    assertThat(withAction(before, "commit"))
        .as("compactions and the commits after the change")
        .hasSize(COMMITS_AFTER_THE_CHANGE + (compactEvery == 0 ? 0 : DELTA_COMMITS / compactEvery));

    ArchivalPlan plan = Ours.plan(ourUri, settings);
    try (HudiTable table = HudiTable.open(hudiCopy, HoodieTableType.COPY_ON_WRITE, settings)) {
      assertThat(table.archiveWithHudi()).isTrue();
    }
    Ours.archive(ourUri, settings);

    Set<String> removedByHudi = removed(before, hudiUri);
    Set<String> planned =
        plan.files().stream()
            .map(TimelineInstant::fileName)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(removedByHudi).as("Hudi archived something").isNotEmpty();
    assertThat(withAction(removedByHudi, "deltacommit"))
        .as("Hudi archives no deltacommit")
        .isEmpty();
    assertThat(planned).as("our plan vs what Hudi removed").isEqualTo(removedByHudi);
    assertThat(removed(before, ourUri))
        .as("what we removed vs what Hudi removed")
        .isEqualTo(removedByHudi);
    // counted as Hudi counts them: the kept commits are min commits' worth of commit instants only
    assertThat(withAction(before, "commit").size() - completedCommits(removedByHudi))
        .isEqualTo(plan.minCommits());
  }

  /** The writer's settings while the table is merge-on-read: inline compaction, or none. */
  private static Map<String, String> morSettings(int compactEvery) {
    Map<String, String> settings = HudiTable.archivalSettings();
    if (compactEvery == 0) {
      settings.put("hoodie.compact.inline", "false");
    } else {
      settings.put("hoodie.compact.inline.max.delta.commits", String.valueOf(compactEvery));
    }
    return settings;
  }

  /**
   * What a user changing the table's type does, through Hudi's own {@code HoodieTableConfig.update}
   * (as Hudi's CLI {@code table update-configs} does): {@code hoodie.table.type} rewritten with its
   * backup and checksum, nothing else.
   */
  private static void changeTypeToCopyOnWrite(HudiTable table) throws Exception {
    HoodieTableMetaClient metaClient = table.metaClient();
    assertThat(metaClient.getTableType()).isEqualTo(HoodieTableType.MERGE_ON_READ);
    Properties type = new Properties();
    type.setProperty(HoodieTableConfig.TYPE.key(), HoodieTableType.COPY_ON_WRITE.name());
    HoodieTableConfig.update(metaClient.getStorage(), metaClient.getMetaPath(), type);
  }

  private static Set<String> removed(Set<String> before, String tableUri) throws Exception {
    Set<String> removed = new TreeSet<>(before);
    removed.removeAll(Ours.instantFiles(tableUri, Map.of()).keySet());
    return removed;
  }

  /** The completed instant files of {@code action} ({@code T.action}). */
  private static Set<String> withAction(Set<String> fileNames, String action) {
    return fileNames.stream()
        .filter(n -> n.matches("\\d+\\." + action))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static int completedCommits(Set<String> fileNames) {
    return withAction(fileNames, "commit").size();
  }
}
