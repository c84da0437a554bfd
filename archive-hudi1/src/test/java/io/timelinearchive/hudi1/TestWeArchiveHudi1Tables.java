package io.timelinearchive.hudi1;

import static io.timelinearchive.hudi1.Hudi1Reads.assertHudiReadsEverything;
import static io.timelinearchive.hudi1.Hudi1Reads.base;
import static io.timelinearchive.hudi1.Hudi1Reads.completedFiles;
import static io.timelinearchive.hudi1.Hudi1Reads.storage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.cli.TimelineArchiveCommand;
import io.timelinearchive.lsm.CorruptHistoryFileException;
import io.timelinearchive.lsm.Hudi1ActiveTimeline;
import io.timelinearchive.lsm.LsmHistory;
import io.timelinearchive.lsm.LsmHistoryInstant;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21, archiving: tables Apache Hudi 1.0.1's Java write client wrote with its own archiver off
 * are archived by us (the library and the command); Hudi 1.0.1 then reads its active timeline and
 * our history together as everything it wrote, each archived instant with the bytes of its file;
 * Hudi's archiver carries on over the history we wrote, and we carry on over Hudi's.
 */
class TestWeArchiveHudi1Tables {
  /** Small, so that each table needs archiving, and our history compacts after 2 files. */
  private static final Map<String, String> ARCHIVAL =
      Map.of(
          "hoodie.keep.min.commits", "2",
          "hoodie.keep.max.commits", "3",
          "hoodie.clean.commits.retained", "1",
          "hoodie.cleaner.commits.retained", "1",
          "hoodie.compact.inline.max.delta.commits", "3",
          "hoodie.timeline.compaction.batch.size", "2");

  private static final int COMMITS = 10;

  private static final Map<HoodieTableType, Path> WRITTEN = new EnumMap<>(HoodieTableType.class);
  private static Path fixtures;

  @TempDir Path tmp;

  @BeforeAll
  static void writeTablesWithHudi1() throws IOException {
    fixtures = Files.createTempDirectory("hudi1-to-archive");
    for (HoodieTableType type : HoodieTableType.values()) {
      Path dir = fixtures.resolve(type.name());
      Hudi1Table.write(dir, type, ARCHIVAL, COMMITS);
      WRITTEN.put(type, dir);
    }
  }

  @AfterAll
  static void deleteTables() throws IOException {
    Hudi1Tables.deleteTree(fixtures);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void hudiReadsOurHistoryAndItsActiveTimelineAsEverythingItWrote(HoodieTableType type)
      throws IOException {
    Path table = copy(type);
    Map<String, byte[]> completedBefore = completedFiles(table);

    ArchiveResult result = archive(table);

    assertThat(result.archived()).isNotEmpty();
    assertThat(result.archiveFilesWritten()).hasSize(1);
    assertThat(result.archiveFilesWritten().get(0).name()).matches("\\d+_\\d+_0\\.parquet");
    assertHudiReadsEverything(table, completedBefore);
    // every state file of each archived instant went, pending ones too
    Set<String> keysArchived =
        result.archived().stream().map(i -> i.key().toString()).collect(Collectors.toSet());
    try (MetaStorage storage = storage(table)) {
      Hudi1ActiveTimeline active =
          Hudi1ActiveTimeline.load(storage, HoodieTable.inspect(storage, base(table)));
      assertThat(active.asActiveTimeline().files())
          .noneMatch(f -> keysArchived.contains(f.instant().key().toString()));
    }
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void aSecondRunFindsNothingToDoAndWritesNothing(HoodieTableType type) throws IOException {
    Path table = copy(type);
    archive(table);
    Map<String, String> before = Hudi1Tables.snapshot(table.resolve(".hoodie"));

    ArchiveResult again = archive(table);

    assertThat(again.archived()).isEmpty();
    assertThat(again.archiveFilesWritten()).isEmpty();
    assertThat(Hudi1Tables.snapshot(table.resolve(".hoodie"))).isEqualTo(before);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void planNamesWhatTheRunArchives(HoodieTableType type) throws IOException {
    Path table = copy(type);
    ArchivalPlan plan;
    try (TimelineArchiver archiver = TimelineArchiver.open(table.toUri().toString(), ARCHIVAL)) {
      plan = archiver.plan();
    }
    assertThat(plan.files()).isNotEmpty();
    assertThat(archive(table).archived()).containsExactlyElementsOf(plan.files());
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void theCommandsArchiveAndShowIt(HoodieTableType type) throws IOException {
    Path table = copy(type);
    Map<String, byte[]> completedBefore = completedFiles(table);

    Run plan = run("plan", table.toString(), "--min", "2", "--max", "3");
    assertThat(plan.exit()).as(plan.err()).isZero();
    Run archive = run("archive", table.toString(), "--min", "2", "--max", "3");
    assertThat(archive.exit()).as(archive.err()).isZero();
    Run show = run("show", "archived", table.toString());
    assertThat(show.exit()).as(show.err()).isZero();

    assertHudiReadsEverything(table, completedBefore);
    try (MetaStorage storage = storage(table)) {
      for (LsmHistoryInstant row : history(storage, table)) {
        assertThat(show.out()).contains(row.requestedTime());
      }
    }
  }

  /** {@code archive-all} finds 1.x tables below a folder and archives each. */
  @org.junit.jupiter.api.Test
  void archiveAllArchivesEveryHudi1TableBelowAFolder() throws IOException {
    Path warehouse = tmp.resolve("warehouse");
    Map<HoodieTableType, Map<String, byte[]>> before = new EnumMap<>(HoodieTableType.class);
    for (HoodieTableType type : HoodieTableType.values()) {
      Path table =
          Hudi1Tables.copy(WRITTEN.get(type), warehouse.resolve(type.name().toLowerCase()));
      before.put(type, completedFiles(table));
    }

    Run all =
        run(
            "archive-all",
            warehouse.toString(),
            "--min",
            "2",
            "--max",
            "3",
            "--conf",
            "hoodie.clean.commits.retained=1");

    assertThat(all.exit()).as(all.err()).isZero();
    for (HoodieTableType type : HoodieTableType.values()) {
      Path table = warehouse.resolve(type.name().toLowerCase());
      assertThat(table.resolve(".hoodie/timeline/history/_version_")).exists();
      assertHudiReadsEverything(table, before.get(type));
    }
  }

  /**
   * A selected instant file that cannot be read: by default the run fails before writing anything;
   * with {@code hoodie.fail.on.timeline.archiving=false} it archives what is older and names the
   * file as the barrier.
   */
  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void anUnreadableInstantFileStopsSelectionBeforeItsInstant(HoodieTableType type)
      throws IOException {
    Path table = copy(type);
    Map<String, byte[]> completed = completedFiles(table);
    StorageLocation base = base(table);
    List<TimelineInstant> planned;
    try (TimelineArchiver archiver = TimelineArchiver.open(base.toString(), ARCHIVAL)) {
      planned = archiver.plan().files();
    }
    List<String> commits =
        planned.stream()
            .filter(i -> i.isCompleted() && i.action().isWriteAction())
            .map(TimelineInstant::time)
            .distinct()
            .toList();
    assertThat(commits).hasSizeGreaterThan(2);
    String broken = commits.get(2);
    Map<String, String> before = Hudi1Tables.snapshot(table.resolve(".hoodie"));

    try (MetaStorage storage = new FailingReads(storage(table), broken)) {
      assertThatThrownBy(
              () ->
                  TimelineArchiver.create(
                          storage, base, ARCHIVAL, Clock.systemUTC(), ArchiveListener.NONE)
                      .archiveIfRequired())
          .isInstanceOf(IOException.class)
          .hasMessageContaining(broken);
      assertThat(Hudi1Tables.snapshot(table.resolve(".hoodie"))).isEqualTo(before);

      Map<String, String> lenient = new TreeMap<>(ARCHIVAL);
      lenient.put("hoodie.fail.on.timeline.archiving", "false");
      ArchiveResult result =
          TimelineArchiver.create(storage, base, lenient, Clock.systemUTC(), ArchiveListener.NONE)
              .archiveIfRequired();
      assertThat(result.barrier().kind()).isEqualTo(Barrier.Kind.UNREADABLE_FILE);
      assertThat(result.barrier().message()).contains(broken);
      assertThat(result.archived()).isNotEmpty().allMatch(i -> i.time().compareTo(broken) < 0);
    }
    assertHudiReadsEverything(table, completed);
  }

  /** A store on which reading the completed file of one instant fails. */
  private static final class FailingReads extends ForwardingMetaStorage {
    private final String instantTime;

    FailingReads(MetaStorage delegate, String instantTime) {
      super(delegate);
      this.instantTime = instantTime;
    }

    @Override
    public byte[] read(StorageLocation file) throws IOException {
      String name = file.fileName();
      if (name.startsWith(instantTime + "_")) {
        throw new IOException("simulated bad sector in " + file);
      }
      return super.read(file);
    }
  }

  /** A history we cannot read stops the run before anything is written or deleted. */
  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void aCorruptManifestStopsTheRunNamingItWithNothingChanged(HoodieTableType type)
      throws IOException {
    Path table = copy(type);
    archive(table);
    try (Hudi1Table writer = Hudi1Table.open(table, type, ARCHIVAL)) {
      for (int i = 0; i < 3; i++) {
        writer.commit();
      }
    }
    Path manifest = table.resolve(".hoodie/timeline/history/manifest_1");
    Files.writeString(manifest, "{ \"files\" : [ {");
    Map<String, String> before = Hudi1Tables.snapshot(table.resolve(".hoodie"));

    assertThatThrownBy(() -> archive(table))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(manifest.getFileName().toString());

    assertThat(Hudi1Tables.snapshot(table.resolve(".hoodie"))).isEqualTo(before);
  }

  /**
   * Our runs interleaved with commits, until our history compacts (2 files a layer here); then
   * Hudi's own archiver, switched on, carries on over our files and manifests.
   */
  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void hudisArchiverCarriesOnOverOurHistory(HoodieTableType type) throws IOException {
    Path table = copy(type);
    Map<String, byte[]> completed = completedFiles(table);
    try (Hudi1Table writer = Hudi1Table.open(table, type, ARCHIVAL)) {
      for (int i = 0; i < 4; i++) {
        archive(table);
        writer.commit();
        writer.commit();
        completed.putAll(completedFiles(table));
      }
    }
    try (MetaStorage storage = storage(table)) {
      assertThat(history(storage, table))
          .extracting(r -> r.file().fileName())
          .as("our history compacted out of layer 0")
          .anyMatch(name -> !name.endsWith("_0.parquet"));
    }
    assertHudiReadsEverything(table, completed);

    Map<String, String> hudiArchives = new TreeMap<>(ARCHIVAL);
    hudiArchives.put("hoodie.archive.automatic", "true");
    try (Hudi1Table writer = Hudi1Table.open(table, type, hudiArchives)) {
      for (int i = 0; i < 6; i++) {
        writer.commit();
        completed.putAll(completedFiles(table));
      }
    }
    assertHudiReadsEverything(table, completed);
  }

  /** Hudi's archiver first, with its own history compacted; then our runs carry on over it. */
  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void weCarryOnOverHudisHistory(HoodieTableType type) throws IOException {
    Path table = tmp.resolve("hudi-first-" + type.name().toLowerCase());
    Map<String, String> hudiArchives = new TreeMap<>(ARCHIVAL);
    hudiArchives.put("hoodie.archive.automatic", "true");
    Map<String, byte[]> completed = new HashMap<>();
    try (Hudi1Table writer = Hudi1Table.create(table, type, hudiArchives)) {
      for (int i = 0; i < 14; i++) {
        writer.commit();
        completed.putAll(completedFiles(table));
      }
    }
    try (Hudi1Table writer = Hudi1Table.open(table, type, ARCHIVAL)) {
      for (int i = 0; i < 3; i++) {
        writer.commit();
        writer.commit();
        completed.putAll(completedFiles(table));
        assertThat(archive(table).archived()).isNotEmpty();
      }
    }
    assertHudiReadsEverything(table, completed);
  }

  private static List<LsmHistoryInstant> history(MetaStorage storage, Path table)
      throws IOException {
    return LsmHistory.load(
            storage, HoodieTable.inspect(storage, base(table)), ArchiveReadOptions.metadataOnly())
        .instants();
  }

  private static ArchiveResult archive(Path table) throws IOException {
    try (TimelineArchiver archiver = TimelineArchiver.open(table.toUri().toString(), ARCHIVAL)) {
      return archiver.archiveIfRequired();
    }
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = TimelineArchiveCommand.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(exit, out.toString(), err.toString());
  }

  private Path copy(HoodieTableType type) throws IOException {
    return Hudi1Tables.copy(WRITTEN.get(type), tmp.resolve(type.name().toLowerCase()));
  }
}
