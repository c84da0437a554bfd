package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.read.ArchiveFileSummary;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.hudicompat.HudiView.ScannedBlock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.block.HoodieLogBlock.HoodieLogBlockType;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue test 4: after our archival, Hudi 0.15's write client keeps writing, cleaning and archiving
 * the same table; the archivers take turns, each new archive file takes the next version, and both
 * readers read everything either wrote.
 */
class TestHudiCarriesOnAfterOurArchival {
  @RegisterExtension static final HudiFixtures FIXTURES = new HudiFixtures();

  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void hudiAndWeTakeTurnsAndBothReadEverything(HoodieTableType type) throws Exception {
    Path base = FIXTURES.copy(type, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    Set<Id> expected = new TreeSet<>();
    try (HudiTable hudi = HudiTable.open(base, type, SETTINGS)) {
      expected.addAll(HudiView.active(hudi.metaClient()));

      ArchiveResult first = Ours.archive(uri, SETTINGS);
      assertThat(first.archiveFilesWritten())
          .extracting(ArchiveResult.WrittenFile::name)
          .containsExactly(".commits_.archive.1_1-0-1");
      assertEverythingReadable(hudi, uri, expected);

      // Hudi takes over: the savepoint goes, so that commits reach the archive again
      String savepoint = FIXTURES.written(type).savepoint();
      expected.removeIf(id -> id.time().equals(savepoint) && id.action().equals("savepoint"));
      hudi.deleteSavepoint(savepoint);
      writeAndArchiveWithHudi(hudi, expected);
      assertThat(archiveVersions(hudi)).containsExactly(1, 2);
      assertEverythingReadable(hudi, uri, expected);

      // and we again, after Hudi
      for (int i = 0; i < 4; i++) {
        hudi.commit();
      }
      hudi.closeClient();
      expected.addAll(HudiView.active(hudi.metaClient()));
      ArchiveResult third = Ours.archive(uri, SETTINGS);
      assertThat(third.archived()).isNotEmpty();
      // Hadoop keeps a checksum beside Hudi's file, which an append would make stale: we start
      // the next version instead, as Hudi itself does on a local disk
      assertThat(third.archiveFilesWritten())
          .extracting(ArchiveResult.WrittenFile::name, ArchiveResult.WrittenFile::appended)
          .containsExactly(tuple(".commits_.archive.3_1-0-1", false));
      assertEverythingReadable(hudi, uri, expected);

      // and Hudi once more: its next file follows whatever we wrote last
      int oursLast = archiveVersions(hudi).get(archiveVersions(hudi).size() - 1);
      writeAndArchiveWithHudi(hudi, expected);
      assertThat(archiveVersions(hudi)).last().isEqualTo(oursLast + 1);
      assertEverythingReadable(hudi, uri, expected);
    }
  }

  private static void writeAndArchiveWithHudi(HudiTable hudi, Set<Id> expected) throws Exception {
    for (int i = 0; i < 4; i++) {
      hudi.commit();
    }
    hudi.closeClient();
    expected.addAll(HudiView.active(hudi.metaClient()));
    Set<Id> archivedBefore = HudiView.ids(HudiView.archived(hudi.metaClient()));
    assertThat(hudi.archiveWithHudi()).isTrue();
    assertThat(HudiView.ids(HudiView.archived(hudi.metaClient())))
        .as("Hudi archived more")
        .hasSizeGreaterThan(archivedBefore.size());
  }

  /**
   * Both readers read the same archive, every block of it, and active ∪ archived is every instant
   * state the table has had (Hudi's reader sees it all, as ours does).
   */
  private static void assertEverythingReadable(HudiTable hudi, String uri, Set<Id> expected)
      throws Exception {
    HoodieTableMetaClient metaClient = hudi.metaClient();
    List<ScannedBlock> blocks = HudiView.scan(metaClient);
    assertThat(blocks)
        .as("blocks Hudi's log reader returns")
        .allMatch(b -> b.type() == HoodieLogBlockType.AVRO_DATA_BLOCK);
    Set<Id> hudiArchived = HudiView.ids(HudiView.archived(metaClient));
    assertThat(blocks.stream().mapToInt(b -> b.records().size()).sum())
        .as("entries in the blocks")
        .isEqualTo(hudiArchived.size());

    ArchivedTimeline ours = Ours.read(uri, Map.of());
    Set<Id> ourArchived = new TreeSet<>();
    for (ArchivedInstant a : ours.instants()) {
      ourArchived.add(Id.of(a.instant()));
    }
    assertThat(ourArchived).as("our reader vs Hudi's").isEqualTo(hudiArchived);
    assertThat(ours.files()).noneMatch(ArchiveFileSummary::truncatedTail);

    Set<Id> active = HudiView.active(metaClient);
    assertThat(active).as("active and archived overlap").doesNotContainAnyElementsOf(hudiArchived);
    Set<Id> union = new TreeSet<>(active);
    union.addAll(hudiArchived);
    assertThat(union).as("active ∪ archived").isEqualTo(expected);
  }

  private static List<Integer> archiveVersions(HudiTable hudi) throws Exception {
    return HudiView.scan(hudi.metaClient()).stream()
        .map(ScannedBlock::version)
        .distinct()
        .sorted()
        .toList();
  }
}
