package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.hudicompat.HudiView.ScannedBlock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.block.HoodieLogBlock.HoodieLogBlockType;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue test 1: Hudi 0.15's own readers read every entry our archiver wrote. */
class TestHudiReadsOurArchive {
  @RegisterExtension static final HudiFixtures FIXTURES = new HudiFixtures();

  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void hudiSeesEveryInstantFileActiveOrArchivedAfterOurArchival(HoodieTableType type)
      throws Exception {
    Path base = FIXTURES.copy(type, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    // only reads: no write client is opened, nothing to close
    HudiTable hudi = HudiTable.open(base, type, SETTINGS);
    Set<Id> before = HudiView.active(hudi.metaClient());
    Map<String, byte[]> originals = Ours.instantFiles(uri, Map.of());
    assertThat(originals).hasSameSizeAs(before);

    ArchiveResult result = Ours.archive(uri, SETTINGS);

    assertThat(result.archived()).as("our run archived something").isNotEmpty();
    assertThat(Ours.invariantViolations(uri, Map.of(), originals)).isEmpty();
    assertThat(orphanChecksums(base.resolve(".hoodie")))
        .as("Hadoop checksums left without their file")
        .isEmpty();
    assertHudiReadsOurArchive(hudi.metaClient(), before, originals, List.of(result));
  }

  /**
   * Where we differ from Hudi on purpose: on a local disk our second run appends to the archive
   * file of our first (Hudi, which never appends there, would write a second file). Hudi reads the
   * appended file as well.
   */
  @Test
  void onALocalDiskOurNextRunAppendsToOurArchiveFileAndHudiReadsIt() throws Exception {
    HoodieTableType type = HoodieTableType.COPY_ON_WRITE;
    Path base = FIXTURES.copy(type, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    try (HudiTable hudi = HudiTable.open(base, type, SETTINGS)) {
      // so that the second run archives commits too
      hudi.deleteSavepoint(FIXTURES.written(type).savepoint());
      hudi.closeClient();
      Set<Id> before = new TreeSet<>(HudiView.active(hudi.metaClient()));
      Map<String, byte[]> originals = new TreeMap<>(Ours.instantFiles(uri, Map.of()));
      ArchiveResult first = Ours.archive(uri, SETTINGS);
      for (int i = 0; i < 3; i++) {
        hudi.commit();
      }
      hudi.closeClient();
      before.addAll(HudiView.active(hudi.metaClient()));
      originals.putAll(Ours.instantFiles(uri, Map.of()));
      ArchiveResult second = Ours.archive(uri, SETTINGS);

      assertThat(List.of(first, second))
          .allSatisfy(run -> assertThat(run.archived()).isNotEmpty())
          .extracting(run -> run.archiveFilesWritten().get(0))
          .extracting(ArchiveResult.WrittenFile::name, ArchiveResult.WrittenFile::appended)
          .containsExactly(
              tuple(".commits_.archive.1_1-0-1", false), tuple(".commits_.archive.1_1-0-1", true));
      assertHudiReadsOurArchive(hudi.metaClient(), before, originals, List.of(first, second));
    }
  }

  /**
   * What Hudi's readers find after our {@code runs}: exactly the instant states we archived, in
   * blocks of at most {@code hoodie.commits.archival.batch} (4) entries, with every completed
   * commit's details parsing as the commit metadata of its {@code originals} file, and together
   * with the active timeline every state in {@code before}.
   */
  static void assertHudiReadsOurArchive(
      HoodieTableMetaClient metaClient,
      Set<Id> before,
      Map<String, byte[]> originals,
      List<ArchiveResult> runs)
      throws IOException {
    Set<Id> ours = new TreeSet<>();
    int expectedBlocks = 0;
    for (ArchiveResult run : runs) {
      ours.addAll(ids(run));
      expectedBlocks += (run.archived().size() + 3) / 4;
    }
    assertThat(ours).as("our runs archived something").isNotEmpty();
    Set<Id> activeAfter = HudiView.active(metaClient);
    HoodieArchivedTimeline archived = HudiView.archived(metaClient);
    Set<Id> archivedIds = HudiView.ids(archived);
    assertThat(archivedIds).as("what Hudi reads from our archive").isEqualTo(ours);
    assertThat(activeAfter)
        .as("active and archived overlap")
        .doesNotContainAnyElementsOf(archivedIds);
    Set<Id> union = new TreeSet<>(activeAfter);
    union.addAll(archivedIds);
    assertThat(union).as("active ∪ archived, as Hudi sees them").isEqualTo(before);

    int commits = 0;
    for (HoodieInstant instant : archived.getInstants()) {
      if (!instant.isCompleted()) {
        continue;
      }
      Option<byte[]> details = archived.getInstantDetails(instant);
      assertThat(details.isPresent()).as("details of %s", instant).isTrue();
      if (instant.getAction().equals("commit") || instant.getAction().equals("deltacommit")) {
        HoodieCommitMetadata read =
            HoodieCommitMetadata.fromBytes(details.get(), HoodieCommitMetadata.class);
        HoodieCommitMetadata original =
            HoodieCommitMetadata.fromBytes(
                originals.get(instant.getFileName()), HoodieCommitMetadata.class);
        assertThat(read.getOperationType()).isEqualTo(original.getOperationType());
        assertThat(read.getFileIdAndRelativePaths())
            .as("files written by %s", instant)
            .isEqualTo(original.getFileIdAndRelativePaths())
            .isNotEmpty();
        assertThat(read.fetchTotalRecordsWritten()).isEqualTo(original.fetchTotalRecordsWritten());
        commits++;
      }
    }
    assertThat(commits).as("completed commits read back").isPositive();

    // Block by block, so that a block Hudi's timeline would skip cannot go unnoticed.
    List<ScannedBlock> blocks = HudiView.scan(metaClient);
    List<Id> scanned = new ArrayList<>();
    for (ScannedBlock block : blocks) {
      assertThat(block.type())
          .as("block of %s", block.file())
          .isEqualTo(HoodieLogBlockType.AVRO_DATA_BLOCK);
      assertThat(block.records()).hasSizeBetween(1, 4);
      for (GenericRecord record : block.records()) {
        scanned.add(Id.of(record));
      }
    }
    assertThat(scanned).as("every entry, once").doesNotHaveDuplicates().hasSize(ours.size());
    assertThat(new TreeSet<>(scanned)).isEqualTo(ours);
    assertThat(blocks).hasSize(expectedBlocks);
  }

  /** Hadoop's {@code .<name>.crc} files in {@code folder} whose {@code <name>} is gone. */
  static List<String> orphanChecksums(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith(".") && n.endsWith(".crc"))
          .filter(n -> !Files.exists(folder.resolve(n.substring(1, n.length() - 4))))
          .sorted()
          .toList();
    }
  }

  static Set<Id> ids(ArchiveResult result) {
    Set<Id> ids = new TreeSet<>();
    result.archived().forEach(i -> ids.add(Id.of(i)));
    return ids;
  }
}
