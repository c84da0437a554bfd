package io.timelinearchive.archive;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.read.ArchiveFileSummary;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveMergePlan;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merging small archive files ({@code hoodie.archive.merge.*}), as scenarios any backend's tests
 * run on their store: each takes a store and a table location with nothing there yet.
 */
public final class MergeScenarios {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private MergeScenarios() {}

  /** 40 commits with a clean after each: about 240 instant files. */
  static SampleTable.Spec table() {
    return TestTables.copyOnWrite(40);
  }

  /** Small retention, at most 6 instants a run: each run writes one small archive file. */
  static Map<String, String> capped(String... more) {
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.max-instants-per-run", "6");
    for (int i = 0; i < more.length; i += 2) {
      config.put(more[i], more[i + 1]);
    }
    return config;
  }

  static List<FileEntry> archiveFiles(MetaStorage storage, StorageLocation base) throws Exception {
    return ArchiveFolder.list(storage, archiveFolder(base)).archiveFiles();
  }

  static StorageLocation archiveFolder(StorageLocation base) {
    return base.resolve(".hoodie").resolve("archived");
  }

  static ArchiveResult run(
      MetaStorage storage, StorageLocation base, Map<String, String> config, MutableClock clock)
      throws Exception {
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, base, config, clock, ArchiveListener.NONE)) {
      return archiver.archiveIfRequired();
    }
  }

  /**
   * On a store without append and default settings but the batch size, runs write one file each
   * until a batch of small files is there; that run merges them into one file of a higher version
   * holding every entry once, and the sources and the plan are gone.
   */
  public static void mergesABatchOfSmallFiles(MetaStorage store, StorageLocation base)
      throws Exception {
    MetaStorage storage = new WithoutAppendMetaStorage(store);
    SampleTable.write(storage, base, table());
    InvariantChecker checker =
        new InvariantChecker(InvariantChecker.snapshot(storage, base.resolve(".hoodie")));
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    Map<String, String> config = capped("hoodie.archive.merge.files.batch.size", "4");
    for (int run = 1; run <= 3; run++) {
      ArchiveResult result = run(storage, base, config, clock);
      assertThat(result.archiveFilesMerged()).isEmpty();
      assertThat(result.mergedArchiveFile()).isEmpty();
      assertThat(archiveFiles(storage, base)).hasSize(run);
    }
    List<InvariantChecker.Archived> before =
        InvariantChecker.readArchive(storage, archiveFolder(base), new ArrayList<>());
    List<String> sources =
        new ArrayList<>(archiveFiles(storage, base).stream().map(FileEntry::name).toList());

    ArchiveResult fourth = run(storage, base, config, clock);

    sources.add(fourth.archiveFilesWritten().get(0).name());
    assertThat(fourth.archiveFilesMerged()).containsExactlyElementsOf(sources);
    assertThat(fourth.mergedArchiveFile()).hasValue(ArchiveFileName.of(5));
    assertThat(fourth.phases()).containsKey("merge");
    List<FileEntry> files = archiveFiles(storage, base);
    assertThat(files).extracting(FileEntry::name).containsExactly(ArchiveFileName.of(5));
    assertThat(names(storage, archiveFolder(base))).doesNotContain(ArchiveMergePlan.FILE_NAME);
    assertThat(checker.check(storage, base.resolve(".hoodie"), archiveFolder(base))).isEmpty();
    // every entry of the sources, once, in the same order
    List<InvariantChecker.Archived> after =
        InvariantChecker.readArchive(storage, archiveFolder(base), new ArrayList<>());
    List<String> expected =
        new ArrayList<>(before.stream().map(InvariantChecker.Archived::id).toList());
    expected.addAll(
        fourth.archived().stream()
            .map(i -> i.time() + "/" + i.action().actionName() + "/" + i.state())
            .toList());
    assertThat(after)
        .extracting(InvariantChecker.Archived::id)
        .containsExactlyInAnyOrderElementsOf(expected)
        .startsWith(before.stream().map(InvariantChecker.Archived::id).toArray(String[]::new));
    ArchivedTimeline read =
        ArchivedTimeline.load(storage, archiveFolder(base), ArchiveReadOptions.all());
    assertThat(read.instants()).hasSize(expected.size());
    assertThat(read.files()).hasSize(1);

    // the next run writes above the merged file; the merged file (above the limit now) is no
    // candidate any more once the limit is below its size
    Map<String, String> limited =
        capped(
            "hoodie.archive.merge.files.batch.size",
            "2",
            "hoodie.archive.merge.small.file.limit.bytes",
            String.valueOf(files.get(0).length() - 1));
    ArchiveResult fifth = run(storage, base, limited, clock);
    assertThat(fifth.archiveFilesWritten())
        .extracting(ArchiveResult.WrittenFile::name)
        .containsExactly(ArchiveFileName.of(6));
    assertThat(fifth.archiveFilesMerged()).isEmpty();
    assertThat(archiveFiles(storage, base)).hasSize(2);
    assertThat(checker.check(storage, base.resolve(".hoodie"), archiveFolder(base))).isEmpty();
  }

  /**
   * Merging is off by default where the store appends (few files pile up there), on when the user
   * says so, and never where the user turned it off.
   */
  public static void mergeFollowsTheSettingAndTheStore(
      MetaStorage appendingStore, StorageLocation base) throws Exception {
    MetaStorage oneFilePerRun = new WithoutAppendMetaStorage(appendingStore);
    SampleTable.write(appendingStore, base, table());
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    Map<String, String> off =
        capped(
            "hoodie.archive.merge.enable", "false", "hoodie.archive.merge.files.batch.size", "2");
    for (int run = 1; run <= 3; run++) {
      assertThat(run(oneFilePerRun, base, off, clock).archiveFilesMerged()).isEmpty();
    }
    assertThat(archiveFiles(appendingStore, base)).hasSize(3);
    // the store appends: the run appends to the newest file and does not merge by default
    ArchiveResult appended =
        run(appendingStore, base, capped("hoodie.archive.merge.files.batch.size", "2"), clock);
    assertThat(appended.archiveFilesWritten()).allMatch(ArchiveResult.WrittenFile::appended);
    assertThat(appended.archiveFilesMerged()).isEmpty();
    assertThat(archiveFiles(appendingStore, base)).hasSize(3);
    // forced on, it merges there too
    ArchiveResult forced =
        run(
            appendingStore,
            base,
            capped(
                "hoodie.archive.merge.enable",
                "TRUE",
                "hoodie.archive.merge.files.batch.size",
                "3"),
            clock);
    assertThat(forced.archiveFilesMerged()).hasSize(3);
    assertThat(archiveFiles(appendingStore, base))
        .extracting(FileEntry::name)
        .containsExactly(ArchiveFileName.of(4));
  }

  /**
   * Readers see each entry once however far a merge got: with the plan and the merged file next to
   * all sources, with some sources gone, with an unreadable plan.
   */
  public static void readersSeeEachEntryOnceWhileAPlanIsThere(
      MetaStorage store, StorageLocation base) throws Exception {
    MetaStorage storage = new WithoutAppendMetaStorage(store);
    SampleTable.write(storage, base, table());
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    Map<String, String> off = capped("hoodie.archive.merge.enable", "false");
    for (int run = 1; run <= 3; run++) {
      run(storage, base, off, clock);
    }
    StorageLocation folder = archiveFolder(base);
    List<FileEntry> sources = archiveFiles(storage, base);
    int expected =
        ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all()).instants().size();
    byte[] merged = concat(storage, sources);
    ArchiveMergePlan plan =
        new ArchiveMergePlan(sources.stream().map(FileEntry::name).toList(), ArchiveFileName.of(4));
    storage.createExclusive(folder.resolve(ArchiveMergePlan.FILE_NAME), plan.encode(folder));

    // the merged file cut off mid-block: never read while every source is there
    storage.createExclusive(
        folder.resolve(plan.mergedFile()), Arrays.copyOf(merged, merged.length / 2 + 3));
    assertReadOnce(storage, folder, expected, sources.size());
    storage.deleteAll(List.of(folder.resolve(plan.mergedFile())));

    // whole merged file, every source still there
    storage.createExclusive(folder.resolve(plan.mergedFile()), merged);
    assertReadOnce(storage, folder, expected, sources.size());
    // one source gone: the merged file is read, the other sources not
    storage.deleteAll(List.of(sources.get(1).location()));
    ArchivedTimeline read = assertReadOnce(storage, folder, expected, 1);
    assertThat(read.files())
        .extracting(ArchiveFileSummary::name)
        .containsExactly(plan.mergedFile());

    // an unreadable plan is ignored: the files are read as they are (here the merged one and the
    // two sources left, duplicates removed by the usual de-duplication)
    storage.deleteAll(List.of(folder.resolve(ArchiveMergePlan.FILE_NAME)));
    storage.createExclusive(
        folder.resolve(ArchiveMergePlan.FILE_NAME), Arrays.copyOf(plan.encode(folder), 20));
    assertThat(ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all()).instants())
        .hasSize(expected);
  }

  private static ArchivedTimeline assertReadOnce(
      MetaStorage storage, StorageLocation folder, int expected, int files) throws Exception {
    ArchivedTimeline read = ArchivedTimeline.load(storage, folder, ArchiveReadOptions.all());
    assertThat(read.instants()).hasSize(expected);
    assertThat(read.files()).hasSize(files);
    assertThat(read.files().stream().mapToInt(ArchiveFileSummary::entries).sum())
        .as("entries read")
        .isEqualTo(expected);
    List<String> problems = new ArrayList<>();
    List<InvariantChecker.Archived> raw = InvariantChecker.readArchive(storage, folder, problems);
    assertThat(raw).hasSize(expected);
    return read;
  }

  /**
   * The next run finishes or undoes a merge a crash left at each step, as Hudi's recovery does,
   * then goes on: a plan cut off while written; the plan alone; the plan and a partial merged file;
   * the plan, the merged file and some sources gone.
   */
  public static void recoversFromAPlanLeftAtAnyStep(MetaStorage store, StorageLocation base)
      throws Exception {
    for (int state = 0; state < 5; state++) {
      StorageLocation table = base.resolve("t" + state);
      MetaStorage storage = new WithoutAppendMetaStorage(store);
      // a smaller table: five of them are written
      SampleTable.write(storage, table, TestTables.copyOnWrite(24));
      InvariantChecker checker =
          new InvariantChecker(InvariantChecker.snapshot(storage, table.resolve(".hoodie")));
      MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
      Map<String, String> off = capped("hoodie.archive.merge.enable", "false");
      for (int run = 1; run <= 3; run++) {
        run(storage, table, off, clock);
      }
      StorageLocation folder = archiveFolder(table);
      List<FileEntry> sources = archiveFiles(storage, table);
      byte[] merged = concat(storage, sources);
      ArchiveMergePlan plan =
          new ArchiveMergePlan(
              sources.stream().map(FileEntry::name).toList(), ArchiveFileName.of(4));
      byte[] planBytes = plan.encode(folder);
      StorageLocation planFile = folder.resolve(ArchiveMergePlan.FILE_NAME);
      StorageLocation mergedFile = folder.resolve(plan.mergedFile());
      String expectWarning;
      List<String> expectFiles;
      List<String> sourceNames = sources.stream().map(FileEntry::name).toList();
      switch (state) {
        case 0 -> {
          storage.createExclusive(planFile, Arrays.copyOf(planBytes, planBytes.length - 7));
          expectWarning = "unreadable merge plan";
          expectFiles = sourceNames;
        }
        case 1 -> {
          storage.createExclusive(planFile, planBytes);
          expectWarning = "undid an interrupted merge";
          expectFiles = sourceNames;
        }
        case 2 -> {
          storage.createExclusive(planFile, planBytes);
          storage.createExclusive(mergedFile, Arrays.copyOf(merged, merged.length - 10));
          expectWarning = "merged file " + plan.mergedFile() + " was removed";
          expectFiles = sourceNames;
        }
        case 3 -> {
          storage.createExclusive(planFile, planBytes);
          storage.createExclusive(mergedFile, merged);
          expectWarning = "undid an interrupted merge";
          expectFiles = sourceNames;
        }
        default -> {
          storage.createExclusive(planFile, planBytes);
          storage.createExclusive(mergedFile, merged);
          storage.deleteAll(List.of(sources.get(0).location(), sources.get(2).location()));
          expectWarning = "finished an interrupted merge";
          expectFiles = List.of(plan.mergedFile());
        }
      }
      assertThat(checker.check(storage, table.resolve(".hoodie"), folder))
          .as("state %d before recovery", state)
          .isEmpty();
      // merging off and nothing left to archive: recovery happens all the same
      Map<String, String> idle = new HashMap<>(off);
      idle.put("hoodie.keep.max.commits", "1000");
      idle.put("hoodie.keep.min.commits", "999");
      ArchiveResult result = run(storage, table, idle, clock);

      assertThat(result.warnings()).as("state %d", state).anyMatch(w -> w.contains(expectWarning));
      assertThat(archiveFiles(storage, table))
          .as("state %d", state)
          .extracting(FileEntry::name)
          .containsExactlyElementsOf(expectFiles);
      assertThat(names(storage, folder)).doesNotContain(ArchiveMergePlan.FILE_NAME);
      assertThat(checker.check(storage, table.resolve(".hoodie"), folder))
          .as("state %d after recovery", state)
          .isEmpty();
    }
  }

  /** What {@link #history} left. */
  public record History(int archiveFiles, int archivedInstants, int merges) {}

  /**
   * A table written to as a job would: {@code runs} times, three commits are added and the archiver
   * runs (archiving about three commits each time). Returns what the archive holds then.
   *
   * @param storage the store as the archiver sees it
   * @param config on top of the retention: 10 to 12 commits kept, 5 retained by the cleaner
   */
  public static History history(
      MetaStorage storage, StorageLocation base, int runs, Map<String, String> config)
      throws Exception {
    SampleTable.write(
        storage,
        base,
        new SampleTable.Spec(10, false, 0, 0, 0, 0, false, LocalDateTime.of(2026, 1, 1, 0, 0), 1));
    Map<String, String> all = new HashMap<>(config);
    all.put("hoodie.keep.min.commits", "10");
    all.put("hoodie.keep.max.commits", "12");
    all.put("hoodie.cleaner.commits.retained", "5");
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    StorageLocation meta = base.resolve(".hoodie");
    LocalDateTime time = LocalDateTime.of(2026, 6, 1, 0, 0);
    int merges = 0;
    byte[] metadata =
        ("{\"partitionToWriteStats\":{\"2026/11/01\":[{\"fileId\":\"f1\",\"path\":\"2026/11/01/f1.parquet\","
                + "\"numWrites\":100,\"totalWriteBytes\":12345}]},\"compacted\":false,"
                + "\"extraMetadata\":{},\"operationType\":\"UPSERT\"}")
            .getBytes(UTF_8);
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, base, all, clock, ArchiveListener.NONE)) {
      for (int run = 0; run < runs; run++) {
        for (int c = 0; c < 3; c++) {
          time = time.plusMinutes(1);
          String t = TIME.format(time);
          storage.createExclusive(meta.resolve(t + ".commit.requested"), new byte[0]);
          storage.createExclusive(meta.resolve(t + ".inflight"), new byte[0]);
          storage.createExclusive(meta.resolve(t + ".commit"), metadata);
        }
        ArchiveResult result = archiver.archiveIfRequired();
        if (result.mergedArchiveFile().isPresent()) {
          merges++;
        }
        clock.advance(java.time.Duration.ofMinutes(1));
      }
    }
    int files = archiveFiles(storage, base).size();
    int instants =
        ArchivedTimeline.load(storage, archiveFolder(base), ArchiveReadOptions.metadataOnly())
            .instants()
            .size();
    return new History(files, instants, merges);
  }

  private static byte[] concat(MetaStorage storage, List<FileEntry> files) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (FileEntry f : files) {
      out.writeBytes(storage.read(f.location()));
    }
    return out.toByteArray();
  }

  private static List<String> names(MetaStorage storage, StorageLocation folder) throws Exception {
    return storage.list(folder).toList().stream().map(FileEntry::name).toList();
  }
}
