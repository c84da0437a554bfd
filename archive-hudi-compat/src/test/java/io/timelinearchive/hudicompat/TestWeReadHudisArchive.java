package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.hudicompat.HudiView.ScannedBlock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue test 2: our reader returns exactly what Hudi 0.15's reader returns from Hudi's archive. */
class TestWeReadHudisArchive {
  @RegisterExtension static final HudiFixtures FIXTURES = new HudiFixtures();

  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void ourReaderReturnsWhatHudisReaderReturnsFromThreeHudiArchiveFiles(HoodieTableType type)
      throws Exception {
    Path base = FIXTURES.copy(type, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    try (HudiTable hudi = HudiTable.open(base, type, SETTINGS)) {
      assertThat(hudi.archiveWithHudi()).isTrue();
      // past the savepoint, so that later runs archive commits too, not only cleans
      hudi.deleteSavepoint(FIXTURES.written(type).savepoint());
      for (int run = 2; run <= 3; run++) {
        for (int i = 0; i < 3; i++) {
          hudi.commit();
        }
        assertThat(hudi.archiveWithHudi()).isTrue();
      }
      // on a local disk Hudi never appends: one new archive file per run
      assertWeReadWhatHudiReads(hudi.metaClient(), uri, Map.of(), List.of(1, 2, 3));
    }
  }

  /**
   * Our reader and Hudi's return the same (time, action, state) set from the archive files of the
   * given {@code versions}, with the same transition times, the same entries and the same details.
   */
  static void assertWeReadWhatHudiReads(
      HoodieTableMetaClient metaClient,
      String uri,
      Map<String, String> config,
      List<Integer> versions)
      throws IOException {
    List<ScannedBlock> blocks = HudiView.scan(metaClient);
    assertThat(blocks.stream().map(ScannedBlock::version).distinct())
        .as("Hudi's archive files")
        .containsExactlyElementsOf(versions);

    HoodieArchivedTimeline theirs = HudiView.archived(metaClient);
    ArchivedTimeline ours = Ours.read(uri, config);

    Set<Id> ourIds = new TreeSet<>();
    ours.instants().forEach(a -> ourIds.add(Id.of(a.instant())));
    assertThat(ourIds).as("(time, action, state) read by us").isEqualTo(HudiView.ids(theirs));
    assertThat(ours.instants()).hasSize(ourIds.size());
    assertThat(ours.files()).extracting(f -> f.version()).containsExactlyElementsOf(versions);
    assertThat(ours.files()).noneMatch(f -> f.truncatedTail());

    Map<Id, GenericRecord> hudiRecords = new TreeMap<>();
    blocks.forEach(b -> b.records().forEach(r -> hudiRecords.put(Id.of(r), r)));
    Map<Id, HoodieInstant> hudiInstants = new TreeMap<>();
    theirs.getInstants().forEach(i -> hudiInstants.put(Id.of(i), i));
    int detailed = 0;
    for (ArchivedInstant entry : ours.instants()) {
      Id id = Id.of(entry.instant());
      HoodieInstant instant = hudiInstants.get(id);
      assertThat(entry.stateTransitionTime())
          .as("state transition time of %s", id)
          .contains(instant.getStateTransitionTime());
      assertThat(entry.rawContent()).as("Hudi's entries carry no raw bytes").isEmpty();
      GenericRecord record = entry.entry().orElseThrow();
      assertThat(record.toString()).as("entry %s", id).isEqualTo(hudiRecords.get(id).toString());
      if (instant.isCompleted() && theirs.getInstantDetails(instant).isPresent()) {
        Object detail = record.get(detailField(id.action()));
        assertThat(detail).as("details of %s", id).isNotNull();
        assertThat(detail.toString().getBytes(StandardCharsets.UTF_8))
            .as("details of %s", id)
            .isEqualTo(theirs.getInstantDetails(instant).get());
        detailed++;
      }
    }
    assertThat(detailed).as("completed instants with details").isGreaterThan(10);
  }

  /** Where the details of a completed instant are, as HoodieArchivedTimeline looks for them. */
  private static String detailField(String action) {
    return switch (action) {
      case "clean" -> "hoodieCleanMetadata";
      case "commit", "deltacommit" -> "hoodieCommitMetadata";
      case "rollback" -> "hoodieRollbackMetadata";
      case "savepoint" -> "hoodieSavePointMetadata";
      case "replacecommit" -> "hoodieReplaceCommitMetadata";
      default -> throw new IllegalArgumentException("no details expected for " + action);
    };
  }
}
