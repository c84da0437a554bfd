package io.timelinearchive.hudi1;

import static io.timelinearchive.hudi1.Hudi1Reads.assertHudiReadsEverything;
import static io.timelinearchive.hudi1.Hudi1Reads.base;
import static io.timelinearchive.hudi1.Hudi1Reads.completedFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.MutableClock;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.lsm.Hudi1Actions;
import io.timelinearchive.lsm.Hudi1ActiveTimeline;
import io.timelinearchive.lsm.Hudi1Instant;
import io.timelinearchive.lsm.LsmHistory;
import io.timelinearchive.storage.FaultInjectingMetaStorage;
import io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Issue 21, crash safety on Hudi 1.x: a run over a table Hudi 1.0.1 wrote, whose history we had
 * written in earlier runs, is killed at each of its mutating steps in turn (the journal, the
 * layer-0 file, manifest N+1, {@code _version_}'s delete and create, the deletes, the compactions'
 * files and manifests, the clean), the step left undone, torn or done without its acknowledgement.
 * At the crash and after a re-run nothing is lost (every completed instant is active or in the
 * current history), the history holds no instant twice, no completed instant left a pending-looking
 * one behind, and the archived ones are always the oldest of those the run took; after the re-run
 * no lock or journal is left, and Hudi 1.0.1 reads everything it wrote, byte for byte.
 */
class TestHudi1ArchiveCrashes {
  /** Compaction after 2 files a layer: the crashing run writes, compacts twice and cleans. */
  private static final Map<String, String> ARCHIVAL =
      Map.of(
          "hoodie.keep.min.commits", "2",
          "hoodie.keep.max.commits", "3",
          "hoodie.clean.commits.retained", "1",
          "hoodie.compact.inline.max.delta.commits", "3",
          "hoodie.timeline.compaction.batch.size", "2");

  private static final Map<HoodieTableType, Path> PREPARED = new EnumMap<>(HoodieTableType.class);
  private static final Map<HoodieTableType, Map<String, byte[]>> COMPLETED =
      new EnumMap<>(HoodieTableType.class);
  private static Path fixtures;

  @TempDir Path tmp;

  /** Hudi writes 10 commits; then three times we archive and it commits twice more. */
  @BeforeAll
  static void prepareTables() throws IOException {
    fixtures = Files.createTempDirectory("hudi1-crashes");
    for (HoodieTableType type : HoodieTableType.values()) {
      Path dir = fixtures.resolve(type.name());
      Map<String, byte[]> completed = new HashMap<>();
      try (Hudi1Table writer = Hudi1Table.create(dir, type, ARCHIVAL)) {
        for (int i = 0; i < 10; i++) {
          writer.commit();
        }
        completed.putAll(completedFiles(dir));
        for (int run = 0; run < 3; run++) {
          try (TimelineArchiver archiver =
              TimelineArchiver.open(dir.toUri().toString(), ARCHIVAL)) {
            archiver.archiveIfRequired();
          }
          writer.commit();
          writer.commit();
          completed.putAll(completedFiles(dir));
        }
      }
      PREPARED.put(type, dir);
      COMPLETED.put(type, completed);
    }
  }

  @AfterAll
  static void deleteTables() throws IOException {
    Hudi1Tables.deleteTree(fixtures);
  }

  @ParameterizedTest
  @EnumSource(HoodieTableType.class)
  void everyCrashPointIsRecoveredWithoutLossHolesOrDuplicates(HoodieTableType type)
      throws Exception {
    Path reference = Hudi1Tables.copy(PREPARED.get(type), tmp.resolve("reference"));
    List<String> taken;
    int steps;
    try (MetaStorage storage = MetaStorages.open(base(reference), Map.of())) {
      FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(storage);
      ArchiveResult uninterrupted = archiver(recording, reference, clock()).archiveIfRequired();
      assertThat(uninterrupted.archiveFilesMerged())
          .as("the run compacts, so its crashes cover compaction and clean")
          .isNotEmpty();
      assertThat(uninterrupted.archiveFilesPurged()).as("and cleans").isNotEmpty();
      taken =
          uninterrupted.archived().stream()
              .filter(i -> i.isCompleted())
              .map(i -> i.time() + " " + i.action())
              .distinct()
              .sorted()
              .toList();
      steps = recording.mutatingSteps();
    }
    LoggerFactory.getLogger(TestHudi1ArchiveCrashes.class)
        .info("{}: crashing at each of {} mutating steps", type, steps);
    assertThat(steps).isGreaterThan(20);

    CrashEffect[] effects = CrashEffect.values();
    for (int k = 1; k <= steps; k++) {
      CrashEffect effect = effects[k % effects.length];
      Path table = Hudi1Tables.copy(PREPARED.get(type), tmp.resolve("crash-" + k));
      MutableClock clock = clock();
      try (MetaStorage storage = MetaStorages.open(base(table), Map.of())) {
        try {
          archiver(FaultInjectingMetaStorage.crashingAt(storage, k, effect), table, clock)
              .archiveIfRequired();
          fail("no crash at step " + k + " of " + steps);
        } catch (Exception e) {
          if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
            throw new AssertionError("step " + k + " (" + effect + "): not the simulated crash", e);
          }
        }
        String at = "step " + k + " (" + effect + ")";
        assertInvariants(storage, table, type, taken, "at the crash, " + at);

        clock.advance(Duration.ofHours(1)); // the dead run's lease runs out
        archiver(storage, table, clock).archiveIfRequired();

        assertInvariants(storage, table, type, taken, "after the re-run, " + at);
        try (Stream<Path> history = Files.list(table.resolve(".hoodie/timeline/history"))) {
          assertThat(history.map(p -> p.getFileName().toString()))
              .as("lock and journal after the re-run, %s", at)
              .noneMatch(name -> name.startsWith(".timeline_archive"));
        }
      }
      assertHudiReadsEverything(table, COMPLETED.get(type));
      Hudi1Tables.deleteTree(table);
    }
  }

  /**
   * Nothing lost, no duplicate in the history, no pending-looking completed instant, and of the
   * commits the run takes, those gone from the active timeline are the oldest.
   */
  private static void assertInvariants(
      MetaStorage storage, Path table, HoodieTableType type, List<String> taken, String when)
      throws IOException {
    HoodieTable hoodie = HoodieTable.inspect(storage, base(table));
    List<String> history =
        LsmHistory.load(storage, hoodie, ArchiveReadOptions.metadataOnly()).timeline().stream()
            .map(TestHudi1ArchiveCrashes::key)
            .toList();
    Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, hoodie);
    Set<String> completedActive =
        active.instants().stream()
            .filter(Hudi1Instant::isCompleted)
            .map(TestHudi1ArchiveCrashes::key)
            .collect(Collectors.toSet());

    assertThat(history).as("duplicates in the history %s", when).doesNotHaveDuplicates();
    Set<String> everything = new TreeSet<>(history);
    everything.addAll(completedActive);
    Set<String> written = new TreeSet<>();
    COMPLETED.get(type).keySet().forEach(name -> written.add(nameKey(name)));
    assertThat(everything).as("history and active %s", when).containsAll(written);

    for (Hudi1Instant pending : active.instants()) {
      if (pending.state() != State.COMPLETED) {
        String key = pending.requestedTime() + " " + Hudi1Actions.completedAs(pending.action());
        assertThat(written.contains(key) && !completedActive.contains(key))
            .as("%s left pending-looking %s", pending, when)
            .isFalse();
      }
    }

    List<String> gone = new ArrayList<>();
    for (String t : taken) {
      if (!completedActive.contains(t)) {
        gone.add(t);
      }
    }
    assertThat(taken.subList(0, gone.size()))
        .as("the instants gone are the oldest taken (no hole) %s", when)
        .isEqualTo(gone);
  }

  private static TimelineArchiver archiver(MetaStorage storage, Path table, MutableClock clock) {
    return TimelineArchiver.create(storage, base(table), ARCHIVAL, clock, ArchiveListener.NONE);
  }

  private static MutableClock clock() {
    return new MutableClock(Instant.now());
  }

  private static String key(Hudi1Instant i) {
    return i.requestedTime() + " " + i.action();
  }

  private static String nameKey(String completedFileName) {
    String requested = completedFileName.substring(0, completedFileName.indexOf('_'));
    return requested + " " + completedFileName.substring(completedFileName.indexOf('.') + 1);
  }
}
