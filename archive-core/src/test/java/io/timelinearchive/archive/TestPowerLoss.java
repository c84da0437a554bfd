package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.timelinearchive.archive.restore.TimelineRestorer;
import io.timelinearchive.storage.FaultInjectingMetaStorage;
import io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.PowerLossMetaStorage;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A power loss at every mutating step of an archival run, a merge and an unarchive: the store then
 * keeps only what the local backend's durability contract makes durable ({@link
 * PowerLossMetaStorage}: a trailing run of deletes in one folder may be undone). The invariants
 * hold after the restart and after a re-run.
 */
class TestPowerLoss {
  private static final int COMMITS = 20;

  enum Run {
    APPEND(s -> s, Map.of("archive.write.buffer-bytes", "8192")),
    ONE_FILE_PER_RUN_THEN_MERGE(
        WithoutAppendMetaStorage::new,
        Map.of(
            "archive.write.buffer-bytes", "8192",
            "hoodie.archive.merge.files.batch.size", "2"));

    final UnaryOperator<MetaStorage> view;
    final Map<String, String> config;

    Run(UnaryOperator<MetaStorage> view, Map<String, String> config) {
      this.view = view;
      this.config = config;
    }
  }

  @ParameterizedTest
  @EnumSource(Run.class)
  void aPowerLossAnywhereInARunKeepsTheInvariants(Run run) throws Exception {
    int steps;
    List<String> expectedActive;
    List<String> expectedArchive;
    try (CrashFixture reference = new CrashFixture(run.config, COMMITS)) {
      FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(reference.memory);
      ArchiveResult result = reference.archiver(run.view.apply(recording)).archiveIfRequired();
      if (run == Run.ONE_FILE_PER_RUN_THEN_MERGE) {
        assertThat(result.archiveFilesMerged()).as("the run ends with a merge").isNotEmpty();
      }
      steps = recording.mutatingSteps();
      expectedActive = reference.activeNames();
      expectedArchive = reference.archivedIds();
    }
    int undone = 0;
    for (int step = 1; step <= steps; step++) {
      int k = step;
      try (CrashFixture f = new CrashFixture(run.config, COMMITS)) {
        PowerLossMetaStorage disk = new PowerLossMetaStorage(f.memory);
        crash(() -> f.archiver(run.view.apply(crashingAt(disk, k))).archiveIfRequired(), k);
        // alternately the newest lossable delete, and all of them
        int loss = k % 2 == 0 ? disk.lossable() : Math.min(1, disk.lossable());
        disk.powerLoss(loss);
        undone += loss;

        assertThat(f.violations()).as("after the restart, step %d (%d undone)", k, loss).isEmpty();
        f.clock.advance(Duration.ofHours(1));
        f.archiver(run.view.apply(f.memory)).archiveIfRequired();
        assertThat(f.violations()).as("after the re-run, step %d", k).isEmpty();
        assertThat(f.activeNames()).as("active after step %d", k).containsAll(expectedActive);
        assertThat(expectedArchive).as("archive after step %d", k).containsAll(f.archivedIds());
        assertThat(f.leftovers()).as("lock and journal after step %d", k).isEmpty();
      }
    }
    assertThat(undone).as("some power losses undid deletes").isPositive();
  }

  @Test
  void aPowerLossAnywhereInAnUnarchiveKeepsTheInvariants() throws Exception {
    int steps;
    try (CrashFixture reference = new CrashFixture(Map.of(), COMMITS)) {
      reference.archiver(reference.memory).archiveIfRequired();
      FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(reference.memory);
      restorer(reference, recording).restore("0", "99999999999999999", true, false);
      steps = recording.mutatingSteps();
    }
    for (int step = 1; step <= steps; step++) {
      int k = step;
      try (CrashFixture f = new CrashFixture(Map.of(), COMMITS)) {
        f.archiver(f.memory).archiveIfRequired();
        PowerLossMetaStorage disk = new PowerLossMetaStorage(f.memory);
        crash(
            () -> restorer(f, crashingAt(disk, k)).restore("0", "99999999999999999", true, false),
            k);
        disk.powerLoss(disk.lossable());
        assertThat(f.violations()).as("after the restart, step %d", k).isEmpty();
        f.clock.advance(Duration.ofHours(1));
        restorer(f, f.memory).restore("0", "99999999999999999", true, false);
        assertThat(f.violations()).as("after the re-run, step %d", k).isEmpty();
        assertThat(f.leftovers()).as("lock after step %d", k).isEmpty();
      }
    }
  }

  private static TimelineRestorer restorer(CrashFixture f, MetaStorage storage) {
    return TimelineRestorer.create(storage, f.base, f.config, f.clock);
  }

  private static MetaStorage crashingAt(MetaStorage disk, int step) {
    return FaultInjectingMetaStorage.crashingAt(disk, step, CrashEffect.NONE);
  }

  private interface Step {
    void run() throws Exception;
  }

  private static void crash(Step step, int k) throws Exception {
    try {
      step.run();
      fail("no crash at step " + k);
    } catch (Exception e) {
      if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
        throw new AssertionError("step " + k + ": not the simulated crash", e);
      }
    }
  }
}
