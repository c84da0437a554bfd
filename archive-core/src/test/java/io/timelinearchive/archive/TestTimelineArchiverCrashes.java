package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.timelinearchive.storage.BlockLengthListingMetaStorage;
import io.timelinearchive.storage.FaultInjectingMetaStorage;
import io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash at every mutating step of a run, with every effect a crash can have on that step; after
 * each, the invariants hold at the crash point and after a clean re-run, which never archives more
 * than an uninterrupted run would.
 */
class TestTimelineArchiverCrashes {
  private static final int COMMITS = 40;

  /** A small write buffer makes a run write in several steps: several appends, or files. */
  private static final Map<String, String> SMALL_BUFFER =
      Map.of("archive.write.buffer-bytes", "8192");

  enum Store {
    APPEND(s -> s, Map.of()),
    ONE_FILE_PER_RUN(WithoutAppendMetaStorage::new, Map.of()),
    APPEND_IN_STEPS(s -> s, SMALL_BUFFER),
    // HDFS lists a file a killed writer left open without its last block: recovery must read
    // the journal's file to its real end, or it archives that block's instants again.
    APPEND_LISTED_IN_BLOCKS(s -> new BlockLengthListingMetaStorage(s, 4096), SMALL_BUFFER),
    // The run's many small files would be merged by default here; merges have a crash test of
    // their own (TestArchiveMergerCrashes), and this one keeps to the write path's steps.
    FILES_IN_STEPS(
        WithoutAppendMetaStorage::new,
        Map.of("archive.write.buffer-bytes", "8192", "hoodie.archive.merge.enable", "false"));

    final UnaryOperator<MetaStorage> view;
    final Map<String, String> config;

    Store(UnaryOperator<MetaStorage> view, Map<String, String> config) {
      this.view = view;
      this.config = config;
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void everyCrashPointIsRecoveredWithoutLossHolesOrDuplicates(Store store) throws Exception {
    CrashFixture reference = new CrashFixture(store.config, COMMITS);
    FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(reference.memory);
    ArchiveResult uninterrupted =
        reference.archiver(store.view.apply(recording)).archiveIfRequired();
    if (store == Store.FILES_IN_STEPS) {
      assertThat(uninterrupted.archiveFilesWritten()).hasSizeGreaterThan(3);
    }
    int steps = recording.mutatingSteps();
    List<String> expectedActive = reference.activeNames();
    List<InvariantChecker.Archived> expectedArchive = reference.archived();
    assertThat(steps).isGreaterThan(100);
    org.slf4j.LoggerFactory.getLogger(TestTimelineArchiverCrashes.class)
        .info("{}: crashing at each of {} mutating steps", store, steps);

    CrashEffect[] effects = CrashEffect.values();
    for (int k = 1; k <= steps; k++) {
      CrashEffect effect = effects[k % effects.length];
      try (CrashFixture f = new CrashFixture(store.config, COMMITS)) {
        FaultInjectingMetaStorage crashing =
            FaultInjectingMetaStorage.crashingAt(f.memory, k, effect);
        try {
          f.archiver(store.view.apply(crashing)).archiveIfRequired();
          fail("no crash at step " + k + " of " + steps);
        } catch (Exception e) {
          if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
            throw new AssertionError("step " + k + " (" + effect + "): not the simulated crash", e);
          }
        }
        assertThat(f.violations()).as("at the crash, step %d (%s)", k, effect).isEmpty();

        f.clock.advance(Duration.ofHours(1)); // the dead run's lease runs out
        f.archiver(store.view.apply(f.memory)).archiveIfRequired();

        assertThat(f.violations()).as("after the re-run, step %d (%s)", k, effect).isEmpty();
        // The re-run finishes what the crashed run made durable, then selects afresh: selection
        // only trims a timeline that is over its maximum, so it may keep a few more instants than
        // an uninterrupted run, never fewer.
        assertThat(f.activeNames())
            .as("active after step %d (%s)", k, effect)
            .containsAll(expectedActive);
        assertThat(expectedArchive.stream().map(InvariantChecker.Archived::id).toList())
            .as("archive after step %d (%s)", k, effect)
            .containsAll(f.archivedIds());
        assertThat(f.leftovers()).as("lock and journal after step %d", k).isEmpty();
      }
    }
    reference.close();
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void crashesDuringRecoveryAreRecoveredToo(Store store) throws Exception {
    Random random = new Random(7);
    for (int trial = 0; trial < 40; trial++) {
      try (CrashFixture f = new CrashFixture(store.config, COMMITS)) {
        int first = 1 + random.nextInt(200);
        int second = 1 + random.nextInt(60);
        runCrashing(f, store, first, CrashEffect.values()[trial % 3]);
        f.clock.advance(Duration.ofHours(1));
        runCrashing(f, store, second, CrashEffect.values()[(trial + 1) % 3]);
        assertThat(f.violations()).as("trial %d after two crashes", trial).isEmpty();
        f.clock.advance(Duration.ofHours(1));
        f.archiver(store.view.apply(f.memory)).archiveIfRequired();
        assertThat(f.violations()).as("trial %d after the re-run", trial).isEmpty();
        assertThat(f.leftovers()).isEmpty();
      }
    }
  }

  private static void runCrashing(CrashFixture f, Store store, int step, CrashEffect effect)
      throws Exception {
    FaultInjectingMetaStorage crashing =
        FaultInjectingMetaStorage.crashingAt(f.memory, step, effect);
    try {
      f.archiver(store.view.apply(crashing)).archiveIfRequired();
    } catch (Exception e) {
      if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
        throw e;
      }
    }
  }
}
