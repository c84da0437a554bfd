package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.storage.StoragePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merging small archive files, against Hudi 0.15 itself on a local disk (where Hudi, too, writes a
 * new archive file per run and merges with {@code hoodie.archive.merge.enable}): Hudi reads what we
 * merged, Hudi's recovery parses our {@code mergeArchivePlan} and finishes or undoes our
 * interrupted merge, and we recover from a plan Hudi's archiver wrote.
 */
class TestHudiMergeInterop {
  @RegisterExtension static final HudiFixtures FIXTURES = new HudiFixtures();
  private static final HoodieTableType TYPE = HoodieTableType.COPY_ON_WRITE;

  @TempDir Path tmp;

  private static Map<String, String> settings(String... more) {
    Map<String, String> s = new HashMap<>(HudiTable.archivalSettings());
    s.put("archive.max-instants-per-run", "3");
    for (int i = 0; i < more.length; i += 2) {
      s.put(more[i], more[i + 1]);
    }
    return s;
  }

  /** Our archiver as on an object store: one new archive file per run. */
  private static ArchiveResult ours(String uri, Map<String, String> config, CrashAt crashAt)
      throws IOException {
    StorageLocation base = StorageLocation.of(uri);
    try (MetaStorage local = MetaStorages.open(base, Map.of());
        TimelineArchiver archiver =
            TimelineArchiver.create(
                new OneFilePerRun(local, crashAt),
                base,
                config,
                Clock.systemUTC(),
                ArchiveListener.NONE)) {
      return archiver.archiveIfRequired();
    }
  }

  /** Runs of ours without merging until nothing is left to archive: several small files. */
  private static List<ArchiveResult> smallFiles(String uri) throws IOException {
    List<ArchiveResult> runs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      ArchiveResult run =
          ours(uri, settings("hoodie.archive.merge.enable", "false"), CrashAt.NEVER);
      if (run.archived().isEmpty()) {
        break;
      }
      runs.add(run);
    }
    assertThat(runs).as("runs that wrote a file each").hasSizeGreaterThanOrEqualTo(3);
    return runs;
  }

  private static List<String> archiveFolder(Path base) throws IOException {
    try (Stream<Path> files = Files.list(base.resolve(".hoodie").resolve("archived"))) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> !n.endsWith(".crc"))
          .sorted()
          .toList();
    }
  }

  private static List<String> archiveFiles(Path base) throws IOException {
    return archiveFolder(base).stream().filter(n -> n.startsWith(".commits_.archive.")).toList();
  }

  @Test
  void hudiReadsAnArchiveWeMergedWithEveryDetail() throws Exception {
    Path base = FIXTURES.copy(TYPE, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    HudiTable hudi = HudiTable.open(base, TYPE, HudiTable.archivalSettings());
    Set<Id> before = HudiView.active(hudi.metaClient());
    Map<String, byte[]> originals = Ours.instantFiles(uri, Map.of());
    List<ArchiveResult> runs = smallFiles(uri);
    List<String> sources = archiveFiles(base);

    ArchiveResult merge =
        ours(uri, settings("hoodie.archive.merge.files.batch.size", "2"), CrashAt.NEVER);
    runs.add(merge);

    List<String> expectedSources = new ArrayList<>(sources);
    merge.archiveFilesWritten().forEach(w -> expectedSources.add(w.name()));
    assertThat(merge.archiveFilesMerged()).containsExactlyElementsOf(expectedSources);
    assertThat(archiveFiles(base)).containsExactly(merge.mergedArchiveFile().orElseThrow());
    assertThat(Ours.invariantViolations(uri, Map.of(), originals)).isEmpty();
    TestHudiReadsOurArchive.assertHudiReadsOurArchive(hudi.metaClient(), before, originals, runs);
  }

  @Test
  void hudisRecoveryParsesOurPlanAndUndoesAMergeWhoseSourcesAreAllThere() throws Exception {
    Path base = FIXTURES.copy(TYPE, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    smallFiles(uri);
    List<String> sources = archiveFiles(base);
    Set<Id> archived = ourIds(uri);

    // crash after the merged file is durable, before any source is deleted
    crashingMerge(uri, CrashAt.FIRST_SOURCE_DELETE);
    assertThat(archiveFolder(base)).contains("mergeArchivePlan");
    String merged = newestBeyond(archiveFiles(base), sources);
    assertThat(ourIds(uri)).as("our reader during the plan").isEqualTo(archived);
    assertThat(HudiView.ids(HudiView.archived(metaClient(base))))
        .as("Hudi's reader during the plan")
        .isEqualTo(archived);

    hudiRecovers(base);

    // Hudi parsed the plan: it removed the merged file it names, not only the plan
    assertThat(archiveFolder(base)).doesNotContain("mergeArchivePlan", merged);
    assertThat(archiveFiles(base)).containsAll(sources);
    assertThat(HudiView.ids(HudiView.archived(metaClient(base)))).containsAll(archived);
    assertThat(
            HudiView.scan(metaClient(base)).stream()
                .flatMap(b -> b.records().stream())
                .map(Id::of)
                .toList())
        .as("no entry twice")
        .doesNotHaveDuplicates();
  }

  @Test
  void hudisRecoveryParsesOurPlanAndFinishesAMergeWithSomeSourcesGone() throws Exception {
    Path base = FIXTURES.copy(TYPE, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    smallFiles(uri);
    List<String> sources = archiveFiles(base);
    Set<Id> archived = ourIds(uri);

    crashingMerge(uri, CrashAt.SECOND_SOURCE_DELETE);
    String merged = newestBeyond(archiveFiles(base), sources);
    assertThat(archiveFiles(base)).doesNotContain(sources.get(0)).contains(sources.get(1), merged);
    assertThat(ourIds(uri)).as("our reader during the plan").isEqualTo(archived);

    hudiRecovers(base);

    assertThat(archiveFolder(base)).doesNotContain("mergeArchivePlan");
    assertThat(archiveFiles(base)).contains(merged).doesNotContainAnyElementsOf(sources);
    assertThat(HudiView.ids(HudiView.archived(metaClient(base)))).containsAll(archived);
  }

  @Test
  void weRecoverFromAPlanHudiWrote() throws Exception {
    Path base = FIXTURES.copy(TYPE, tmp.resolve("table"));
    String uri = HudiTable.uri(base);
    smallFiles(uri);
    List<String> sources = archiveFiles(base);
    Set<Id> archived = ourIds(uri);
    Path folder = base.resolve(".hoodie").resolve("archived");
    int next = sources.stream().mapToInt(HudiView::version).max().getAsInt() + 1;
    String merged = ".commits_.archive." + next + "_1-0-1";
    List<String> candidates =
        sources.stream()
            .map(n -> new StoragePath(folder.toUri().toString(), n).toString())
            .toList();

    // Hudi's plan, and a merged file as Hudi's merge leaves it once whole (every source's blocks)
    try (HudiTable hudi = HudiTable.open(base, TYPE, HudiTable.archivalSettings())) {
      hudi.buildArchiveMergePlanWithHudi(
          candidates,
          new StoragePath(
              folder.toUri().toString(), HoodieArchivedTimeline.MERGE_ARCHIVE_PLAN_NAME),
          merged);
    }
    try (var out = Files.newOutputStream(folder.resolve(merged))) {
      for (String source : sources) {
        out.write(Files.readAllBytes(folder.resolve(source)));
      }
    }
    Files.delete(folder.resolve(sources.get(0)));
    assertThat(ourIds(uri)).as("our reader with Hudi's plan").isEqualTo(archived);

    ArchiveResult result =
        ours(uri, settings("hoodie.archive.merge.enable", "false"), CrashAt.NEVER);

    assertThat(result.warnings()).anyMatch(w -> w.contains("finished an interrupted merge"));
    assertThat(archiveFolder(base)).doesNotContain(HoodieArchivedTimeline.MERGE_ARCHIVE_PLAN_NAME);
    // Hudi wrote the plan through Hadoop's local file system, with a checksum next to it
    assertThat(TestHudiReadsOurArchive.orphanChecksums(folder)).isEmpty();
    assertThat(archiveFiles(base)).contains(merged).doesNotContainAnyElementsOf(sources);
    assertThat(ourIds(uri)).containsAll(archived);
    assertThat(HudiView.ids(HudiView.archived(metaClient(base)))).containsAll(archived);
  }

  private static org.apache.hudi.common.table.HoodieTableMetaClient metaClient(Path base) {
    return HudiTable.open(base, TYPE, HudiTable.archivalSettings()).metaClient();
  }

  /** Hudi's archiver with merging on (and a batch it does not reach itself): its recovery runs. */
  private static void hudiRecovers(Path base) throws IOException {
    Map<String, String> s = new HashMap<>(HudiTable.archivalSettings());
    s.put("hoodie.archive.merge.enable", "true");
    s.put("hoodie.archive.merge.files.batch.size", "100");
    try (HudiTable hudi = HudiTable.open(base, TYPE, s)) {
      assertThat(hudi.archiveWithHudi()).isTrue();
    }
  }

  private static void crashingMerge(String uri, CrashAt crashAt) throws IOException {
    try {
      ours(uri, settings("hoodie.archive.merge.files.batch.size", "2"), crashAt);
      throw new AssertionError("no crash");
    } catch (IOException e) {
      Throwable t = e;
      while (t != null && !(t instanceof SimulatedCrash)) {
        t = t.getCause();
      }
      if (t == null) {
        throw e;
      }
    }
  }

  private static String newestBeyond(List<String> files, List<String> sources) {
    return files.stream()
        .filter(f -> !sources.contains(f))
        .max(java.util.Comparator.comparingInt(HudiView::version))
        .orElseThrow();
  }

  private static Set<Id> ourIds(String uri) throws IOException {
    Set<Id> ids = new TreeSet<>();
    List<ArchivedInstant> instants = Ours.read(uri, Map.of()).instants();
    instants.forEach(i -> ids.add(Id.of(i.instant())));
    assertThat(instants).hasSameSizeAs(ids);
    return ids;
  }

  enum CrashAt {
    NEVER,
    FIRST_SOURCE_DELETE,
    SECOND_SOURCE_DELETE
  }

  static final class SimulatedCrash extends IOException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(String message) {
      super(message);
    }
  }

  /**
   * The local disk seen as a store without append; optionally dies when the merge deletes its
   * sources (a delete of several archive files at once), before or after the first of them.
   */
  private static final class OneFilePerRun extends ForwardingMetaStorage {
    private final CrashAt crashAt;

    OneFilePerRun(MetaStorage delegate, CrashAt crashAt) {
      super(delegate);
      this.crashAt = crashAt;
    }

    @Override
    public boolean supportsAppend() {
      return false;
    }

    @Override
    public Optional<AppendableLog> openLog(StorageLocation file) {
      return Optional.empty();
    }

    @Override
    public void deleteAll(Collection<StorageLocation> files) throws IOException {
      boolean sources =
          files.size() > 1
              && files.stream().allMatch(f -> f.fileName().startsWith(".commits_.archive."));
      if (sources && crashAt == CrashAt.FIRST_SOURCE_DELETE) {
        throw new SimulatedCrash("before deleting " + files);
      }
      if (sources && crashAt == CrashAt.SECOND_SOURCE_DELETE) {
        delegate.deleteAll(List.of(files.iterator().next()));
        throw new SimulatedCrash("after deleting the first of " + files);
      }
      delegate.deleteAll(files);
    }

    @Override
    public void close() {}
  }
}
