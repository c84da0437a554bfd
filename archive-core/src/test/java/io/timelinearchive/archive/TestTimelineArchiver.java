package io.timelinearchive.archive;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.folder.ArchiveLockedException;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestTimelineArchiver {
  private final MutableClock clock =
      new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage memory = TestTables.memory(base);
  private final StorageLocation meta = base.resolve(".hoodie");
  private final StorageLocation archiveFolder = meta.resolve("archived");

  @org.junit.jupiter.api.AfterEach
  void dropVolume() {
    io.timelinearchive.storage.memory.InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  private TimelineArchiver archiver(MetaStorage storage, Map<String, String> config) {
    return TimelineArchiver.create(storage, base, config, clock, ArchiveListener.NONE);
  }

  private List<String> names(StorageLocation folder) throws Exception {
    return memory.list(folder).toList().stream().map(FileEntry::name).toList();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void archivesWhatSelectionChoosesAndKeepsEveryFile(boolean append) throws Exception {
    MetaStorage storage = append ? memory : new WithoutAppendMetaStorage(memory);
    SampleTable.Written table = TestTables.write(memory, base, TestTables.copyOnWrite(40));
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));

    ArchiveResult result = archiver(storage, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(checker.check(memory, meta, archiveFolder)).isEmpty();
    assertThat(result.archivedByAction()).containsEntry("commit", 35).containsKey("clean");
    assertThat(result.activeBefore()).isEqualTo(table.files().size());
    assertThat(result.activeAfter()).isEqualTo(table.files().size() - result.archived().size());
    assertThat(result.archiveFilesWritten()).hasSize(1);
    assertThat(result.archiveFilesWritten().get(0).name()).isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(result.barrier().kind()).isEqualTo(Barrier.Kind.MIN_COMMITS);
    // every archived state file is back, byte for byte, through the product's reader too
    ArchivedTimeline read = ArchivedTimeline.load(memory, archiveFolder, ArchiveReadOptions.all());
    assertThat(read.instants()).hasSize(result.archived().size());
    for (ArchivedInstant a : read.instants()) {
      byte[] original = checker.original(a.instant().fileName());
      assertThat(a.rawBytes()).hasValueSatisfying(raw -> assertThat(raw).isEqualTo(original));
    }
    // the lock and the journal are gone
    assertThat(names(archiveFolder)).containsExactly(".commits_.archive.1_1-0-1");
  }

  @Test
  void aSecondRunFindsNothingToDo() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();
    List<String> before = names(meta);

    ArchiveResult second = archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(second.archived()).isEmpty();
    assertThat(second.archiveFilesWritten()).isEmpty();
    assertThat(names(meta)).isEqualTo(before);
  }

  @Test
  void laterRunsAppendToTheNewestFileWhereTheStoreCan() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("hoodie.keep.min.commits", "25");
    config.put("hoodie.keep.max.commits", "30");
    ArchiveResult first = archiver(memory, config).archiveIfRequired();
    ArchiveResult second = archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(first.archiveFilesWritten()).singleElement().matches(f -> !f.appended());
    assertThat(second.archiveFilesWritten()).singleElement().matches(f -> f.appended());
    assertThat(archiveFiles()).containsExactly(".commits_.archive.1_1-0-1");
  }

  @Test
  void storesWithoutAppendGetOneNewFilePerRun() throws Exception {
    MetaStorage storage = new WithoutAppendMetaStorage(memory);
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("hoodie.keep.min.commits", "25");
    config.put("hoodie.keep.max.commits", "30");
    archiver(storage, config).archiveIfRequired();
    archiver(storage, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(archiveFiles())
        .containsExactly(".commits_.archive.1_1-0-1", ".commits_.archive.2_1-0-1");
  }

  @Test
  void rollsOverPastTheSizeThreshold() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("hoodie.keep.min.commits", "25");
    config.put("hoodie.keep.max.commits", "30");
    archiver(memory, config).archiveIfRequired();
    Map<String, String> small = new HashMap<>(TestTables.SMALL_RETENTION);
    small.put("archive.file.max-bytes", "1024");
    ArchiveResult second = archiver(memory, small).archiveIfRequired();

    assertThat(second.archiveFilesWritten()).singleElement().matches(f -> !f.appended());
    assertThat(archiveFiles())
        .containsExactly(".commits_.archive.1_1-0-1", ".commits_.archive.2_1-0-1");
  }

  @Test
  void blocksHoldTheConfiguredBatchOfRecords() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("hoodie.commits.archival.batch", "7");
    ArchiveResult result = archiver(memory, config).archiveIfRequired();

    int files = result.archived().size();
    assertThat(result.archiveFilesWritten().get(0).blocks()).isEqualTo((files + 6) / 7);
  }

  @Test
  void anUnreadableSelectedFileFailsTheRunBeforeAnythingIsWritten() throws Exception {
    SampleTable.Written table = TestTables.write(memory, base, TestTables.copyOnWrite(40));
    String clean = firstCompleted(table, Action.CLEAN);
    memory.deleteAll(List.of(meta.resolve(clean)));
    memory.createExclusive(meta.resolve(clean), "not an avro file".getBytes(UTF_8));
    Map<String, byte[]> before = InvariantChecker.snapshot(memory, meta);

    assertThatThrownBy(() -> archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired())
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining(meta.resolve(clean).toString());

    assertThat(InvariantChecker.snapshot(memory, meta)).containsOnlyKeys(before.keySet());
    assertThat(names(archiveFolder)).isEmpty();
  }

  @Test
  void anUnreadableFileStopsSelectionBeforeItWhenFailingIsOff() throws Exception {
    SampleTable.Written table = TestTables.write(memory, base, TestTables.copyOnWrite(40));
    List<String> commits = completed(table, Action.COMMIT);
    String bad = commits.get(10);
    memory.deleteAll(List.of(meta.resolve(bad)));
    memory.createExclusive(meta.resolve(bad), "{ not json".getBytes(UTF_8));
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("hoodie.fail.on.timeline.archiving", "false");

    ArchiveResult result = archiver(memory, config).archiveIfRequired();

    assertThat(result.barrier().kind()).isEqualTo(Barrier.Kind.UNREADABLE_FILE);
    assertThat(result.warnings()).anyMatch(w -> w.contains(bad));
    assertThat(result.archived()).allMatch(i -> i.time().compareTo(bad.substring(0, 17)) < 0);
    assertThat(result.archivedByAction()).containsEntry("commit", 10);
    assertThat(names(meta)).contains(bad);
    assertThat(checker.check(memory, meta, archiveFolder)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aRunLargerThanItsWriteBufferWritesInStepsAndArchivesTheSame(boolean append)
      throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.write.buffer-bytes", "4096");
    MetaStorage store = append ? memory : new WithoutAppendMetaStorage(memory);

    ArchiveResult result = archiver(store, config).archiveIfRequired();

    assertThat(result.archived()).hasSizeGreaterThan(50);
    if (append) {
      assertThat(result.archiveFilesWritten()).hasSize(1);
      // One flush per 4 KiB of instant files: more blocks than one run's batches would need.
      assertThat(result.archiveFilesWritten().get(0).blocks())
          .isGreaterThan((result.archived().size() + 9) / 10);
    } else {
      assertThat(result.archiveFilesWritten()).hasSizeGreaterThan(3);
      assertThat(result.archiveFilesWritten().stream().map(ArchiveResult.WrittenFile::name))
          .containsExactlyElementsOf(
              java.util.stream.IntStream.rangeClosed(1, result.archiveFilesWritten().size())
                  .mapToObj(ArchiveFileName::of)
                  .toList());
    }
    assertThat(checker.check(memory, meta, archiveFolder)).isEmpty();
    ArchivedTimeline archive =
        ArchivedTimeline.load(memory, archiveFolder, ArchiveReadOptions.metadataOnly());
    assertThat(archive.instants().stream().map(ArchivedInstant::instant).toList())
        .containsExactlyInAnyOrderElementsOf(result.archived());
  }

  @Test
  void aFileFailingAfterTheFirstStepArchivesWhatCameBeforeThenFailsTheRun() throws Exception {
    SampleTable.Written table = TestTables.write(memory, base, TestTables.copyOnWrite(40));
    InvariantChecker original = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    List<String> commits = completed(table, Action.COMMIT);
    String bad = commits.get(12);
    byte[] good = memory.read(meta.resolve(bad));
    memory.deleteAll(List.of(meta.resolve(bad)));
    memory.createExclusive(meta.resolve(bad), "{ not json".getBytes(UTF_8));
    InvariantChecker damaged = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    // A block per file and a step per instant: the bad instant's requested and inflight files are
    // read before it, and must not be written without it.
    config.put("archive.write.buffer-bytes", "1");
    config.put("hoodie.commits.archival.batch", "1");

    assertThatThrownBy(() -> archiver(memory, config).archiveIfRequired())
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining(meta.resolve(bad).toString());

    // What came before the bad instant is archived and gone from the active timeline; none of
    // the bad instant's files is archived; no journal is left for a re-run to finish.
    assertThat(damaged.check(memory, meta, archiveFolder)).isEmpty();
    assertThat(names(meta)).contains(bad).doesNotContain(commits.get(0));
    List<InvariantChecker.Archived> archived =
        InvariantChecker.readArchive(memory, archiveFolder, new ArrayList<>());
    assertThat(archived).isNotEmpty();
    assertThat(archived).allMatch(a -> a.time().compareTo(bad.substring(0, 17)) < 0);
    assertThat(names(archiveFolder)).noneMatch(n -> n.startsWith(".timeline_archive.journal"));

    // Once repaired, the rest is archived without archiving anything twice.
    memory.deleteAll(List.of(meta.resolve(bad)));
    memory.createExclusive(meta.resolve(bad), good);
    archiver(memory, config).archiveIfRequired();
    assertThat(names(meta)).doesNotContain(bad);
    assertThat(original.check(memory, meta, archiveFolder)).isEmpty();
  }

  @Test
  void aWriteBufferBelowOneByteIsRefusedNamingTheKey() {
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.write.buffer-bytes", "0");
    assertThatThrownBy(() -> archiver(memory, config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("archive.write.buffer-bytes")
        .hasMessageContaining("'0'");
  }

  @Test
  void malformedNamesAreReportedAndLeftAlone() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    memory.createExclusive(meta.resolve("20260101000000000.bogus"), new byte[0]);
    memory.createExclusive(meta.resolve("20260101000000000.commit.weird"), new byte[0]);

    ArchiveResult result = archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(result.warnings())
        .anyMatch(w -> w.contains("20260101000000000.bogus"))
        .anyMatch(w -> w.contains("20260101000000000.commit.weird"));
    assertThat(names(meta)).contains("20260101000000000.bogus", "20260101000000000.commit.weird");
  }

  @Test
  void oldCompactionPlanCopiesInAuxAreRemovedAndNothingElse() throws Exception {
    SampleTable.Written table = TestTables.write(memory, base, TestTables.copyOnWrite(40));
    List<String> commits = completed(table, Action.COMMIT);
    StorageLocation aux = meta.resolve(".aux");
    String old = commits.get(0).substring(0, 17) + ".compaction.requested";
    String young = commits.get(39).substring(0, 17) + ".compaction.requested";
    for (String name : List.of(old, young, "notes.txt")) {
      memory.createExclusive(aux.resolve(name), new byte[] {1});
    }
    memory.createExclusive(aux.resolve(".bootstrap/" + old), new byte[] {1});

    ArchiveResult result = archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(result.auxFilesDeleted()).isEqualTo(1);
    assertThat(names(aux)).containsExactly(young, "notes.txt");
    assertThat(names(aux.resolve(".bootstrap"))).containsExactly(old);
  }

  @Test
  void aMissingTableIsOneClearError() {
    assertThatThrownBy(() -> archiver(memory, Map.of()).archiveIfRequired())
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("not a Hudi table")
        .hasMessageContaining("hoodie.properties");
  }

  @Test
  void invalidSettingsNameTheKey() {
    assertThatThrownBy(() -> archiver(memory, Map.of("archive.read.parallelism", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("archive.read.parallelism");
    assertThatThrownBy(() -> archiver(memory, Map.of("archive.lock.lease", "soon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("archive.lock.lease");
    assertThatThrownBy(
            () ->
                archiver(
                    memory,
                    Map.of("hoodie.keep.min.commits", "30", "hoodie.keep.max.commits", "20")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hoodie.keep.min.commits");
  }

  @Test
  void onlyOneOfEightRacingArchiversArchives() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<ArchiveResult>> runs = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        runs.add(
            pool.submit(
                () -> {
                  start.await();
                  return archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();
                }));
      }
      start.countDown();
      int archived = 0;
      int locked = 0;
      for (Future<ArchiveResult> run : runs) {
        try {
          if (!run.get().archived().isEmpty()) {
            archived++;
          }
        } catch (java.util.concurrent.ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(ArchiveLockedException.class);
          locked++;
        }
      }
      // Those that came after the winner finished find nothing left to do.
      assertThat(archived).isEqualTo(1);
      assertThat(archived + locked).isLessThanOrEqualTo(8);
    } finally {
      pool.shutdownNow();
    }
    assertThat(checker.check(memory, meta, archiveFolder)).isEmpty();
    assertThat(archiveFiles()).containsExactly(".commits_.archive.1_1-0-1");
  }

  @Test
  void bothFilesOfOneStateAreArchivedAndDeletedTogether() throws Exception {
    // Hudi reads T.commit.inflight as T.inflight: two files of one instant state
    SampleTable.Written table = TestTables.write(memory, base, TestTables.copyOnWrite(40));
    String inflight =
        table.files().keySet().stream().filter(n -> n.matches("\\d+\\.inflight")).findFirst().get();
    String alias = inflight.replace(".inflight", ".commit.inflight");
    memory.createExclusive(
        meta.resolve(alias), "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));

    ArchiveResult result = archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();

    assertThat(result.archived()).extracting(TimelineInstant::fileName).contains(inflight);
    assertThat(names(meta)).doesNotContain(inflight, alias);
    assertThat(names(meta)).doesNotContain(inflight.replace(".inflight", ".commit"));
  }

  @Test
  void aHolderPausedPastItsLeaseStopsBeforeDeletingAndASuccessorFinishes() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.lock.lease", "1m");
    List<ArchiveResult> successor = new ArrayList<>();
    ArchiveListener pauseBeforeDeleting =
        phase -> {
          if (phase == Phase.DELETE_PENDING && successor.isEmpty()) {
            clock.advance(Duration.ofMinutes(2)); // paused past the lease
            successor.add(archiver(memory, config).archiveIfRequired());
          }
        };
    TimelineArchiver paused =
        TimelineArchiver.create(memory, base, config, clock, pauseBeforeDeleting);

    assertThatThrownBy(paused::archiveIfRequired).isInstanceOf(ArchiveLockedException.class);

    assertThat(successor).singleElement().satisfies(r -> assertThat(r.recovered()).isNotEmpty());
    assertThat(checker.check(memory, meta, archiveFolder)).isEmpty();
    assertThat(InvariantChecker.readArchive(memory, archiveFolder, new ArrayList<>()))
        .extracting(InvariantChecker.Archived::id)
        .doesNotHaveDuplicates();
  }

  @Test
  void aLongWriteKeepsItsLeaseAliveInsteadOfLosingTheLock() throws Exception {
    // Found by archive-reliability's crash suite: read and write never renewed the lease, so a run
    // whose writing took longer than two thirds of the lease gave up before deleting, and a
    // successor could take the lock over while the holder was still appending blocks.
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.lock.lease", "1m");
    config.put("hoodie.commits.archival.batch", "1");
    MetaStorage slowAppends = new SlowAppendMetaStorage(memory, clock, Duration.ofSeconds(20));

    ArchiveResult result = archiver(slowAppends, config).archiveIfRequired();

    assertThat(result.archiveFilesWritten().get(0).blocks()).isGreaterThan(10);
    assertThat(checker.check(memory, meta, archiveFolder)).isEmpty();
    assertThat(names(archiveFolder)).noneMatch(n -> n.startsWith(ArchiveLock.PREFIX));
  }

  /** Each append to an archive log takes {@code perAppend} of the test's clock. */
  private static final class SlowAppendMetaStorage
      extends io.timelinearchive.storage.ForwardingMetaStorage {
    private final MutableClock clock;
    private final Duration perAppend;

    SlowAppendMetaStorage(MetaStorage delegate, MutableClock clock, Duration perAppend) {
      super(delegate);
      this.clock = clock;
      this.perAppend = perAppend;
    }

    @Override
    public java.util.Optional<io.timelinearchive.storage.AppendableLog> openLog(
        StorageLocation file) throws java.io.IOException {
      return delegate
          .openLog(file)
          .map(
              log ->
                  new io.timelinearchive.storage.ForwardingAppendableLog(log) {
                    @Override
                    public void append(byte[] bytes) throws java.io.IOException {
                      clock.advance(perAppend);
                      delegate.append(bytes);
                    }
                  });
    }
  }

  @Test
  void anotherArchiversLockIsRespectedUntilItsLeaseEnds() throws Exception {
    TestTables.write(memory, base, TestTables.copyOnWrite(40));
    memory.createExclusive(
        archiveFolder.resolve(ArchiveLock.PREFIX + "3"),
        ("owner=other-host/1/abc\nexpiry=" + clock.instant().plus(Duration.ofMinutes(5)) + "\n")
            .getBytes(UTF_8));

    assertThatThrownBy(() -> archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired())
        .isInstanceOf(ArchiveLockedException.class)
        .hasMessageContaining("other-host/1/abc");

    clock.advance(Duration.ofMinutes(6));
    ArchiveResult result = archiver(memory, TestTables.SMALL_RETENTION).archiveIfRequired();
    assertThat(result.archived()).isNotEmpty();
    assertThat(names(archiveFolder)).noneMatch(n -> n.startsWith(ArchiveLock.PREFIX));
  }

  @Test
  void worksOnLocalDisk(@TempDir Path dir) throws Exception {
    StorageLocation local = StorageLocation.of(dir.toString());
    try (MetaStorage storage = MetaStorages.open(local, Map.of())) {
      TestTables.write(storage, local, TestTables.copyOnWrite(40));
      InvariantChecker checker =
          new InvariantChecker(InvariantChecker.snapshot(storage, local.resolve(".hoodie")));
      try (TimelineArchiver archiver =
          TimelineArchiver.open(local.toString(), TestTables.SMALL_RETENTION)) {
        assertThat(archiver.archiveIfRequired().archived()).isNotEmpty();
      }
      HoodieTable table = HoodieTable.load(storage, local);
      assertThat(checker.check(storage, table.metaFolder(), table.archiveFolder())).isEmpty();
    }
  }

  @Test
  void onLocalDiskStartsANewArchiveFileWhereHadoopKeepsAChecksumOfTheNewest(@TempDir Path dir)
      throws Exception {
    StorageLocation local = StorageLocation.of(dir.toString());
    Path archived = dir.resolve(".hoodie/archived");
    try (MetaStorage storage = MetaStorages.open(local, Map.of())) {
      TestTables.write(storage, local, TestTables.copyOnWrite(40));
      InvariantChecker checker =
          new InvariantChecker(InvariantChecker.snapshot(storage, local.resolve(".hoodie")));
      Map<String, String> keepMore = new HashMap<>(TestTables.SMALL_RETENTION);
      keepMore.put("hoodie.keep.min.commits", "20");
      keepMore.put("hoodie.keep.max.commits", "25");
      try (TimelineArchiver archiver = TimelineArchiver.open(local.toString(), keepMore)) {
        assertThat(archiver.archiveIfRequired().archived()).isNotEmpty();
      }
      // as if Hudi had written that file through Hadoop's LocalFileSystem
      byte[] first = Files.readAllBytes(archived.resolve(".commits_.archive.1_1-0-1"));
      Files.write(archived.resolve("..commits_.archive.1_1-0-1.crc"), new byte[] {1, 2, 3});

      ArchiveResult result;
      try (TimelineArchiver archiver =
          TimelineArchiver.open(local.toString(), TestTables.SMALL_RETENTION)) {
        result = archiver.archiveIfRequired();
      }

      assertThat(result.archiveFilesWritten())
          .singleElement()
          .satisfies(
              written -> {
                assertThat(written.name()).isEqualTo(".commits_.archive.2_1-0-1");
                assertThat(written.appended()).isFalse();
              });
      assertThat(Files.readAllBytes(archived.resolve(".commits_.archive.1_1-0-1")))
          .isEqualTo(first);
      HoodieTable table = HoodieTable.load(storage, local);
      assertThat(checker.check(storage, table.metaFolder(), table.archiveFolder())).isEmpty();
    }
  }

  @Test
  void stopsAtTheSavepointAndThePendingCompactionOfTheDemoTable() throws Exception {
    TestTables.write(memory, base, SampleTable.Spec.demo());
    ArchiveResult result = archiver(memory, Map.of()).archiveIfRequired();
    assertThat(result.barrier().kind()).isEqualTo(Barrier.Kind.SAVEPOINT);
    assertThat(result.barrier().message()).startsWith("first savepoint at 2026");
  }

  private List<String> archiveFiles() throws Exception {
    return names(archiveFolder).stream()
        .filter(n -> ArchiveFileName.version(n).isPresent())
        .toList();
  }

  private static List<String> completed(SampleTable.Written table, Action action) {
    return table.files().entrySet().stream()
        .filter(e -> e.getValue().action() == action && e.getValue().state() == State.COMPLETED)
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  private static String firstCompleted(SampleTable.Written table, Action action) {
    return completed(table, action).get(0);
  }
}
