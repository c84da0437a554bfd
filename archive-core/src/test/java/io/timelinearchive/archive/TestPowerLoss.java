package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.timelinearchive.archive.restore.TimelineRestorer;
import io.timelinearchive.storage.FaultInjectingMetaStorage;
import io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.PowerLossMetaStorage;
import io.timelinearchive.storage.PowerLossMetaStorage.Order;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A power loss at every mutating step of an archival run, a run ending in a merge, and an
 * unarchive. The disk then keeps only what the local backend's durability contract makes durable
 * ({@link PowerLossMetaStorage}) and loses a subset of the rest, every subset the contract allows
 * when they are few, else a seeded sample. After the restart nothing is lost, archived twice or
 * pending-looking; where the disk may lose any subset of a folder's unforced deletes, completed
 * ones of the interrupted run may come back out of order (a hole) until the next run, which the
 * journal makes finish the deletes; a re-run leaves invariants 1–3 whole.
 */
class TestPowerLoss {
  private static final Logger LOG = LoggerFactory.getLogger(TestPowerLoss.class);
  private static final int COMMITS = 20;
  private static final int LOSSES_PER_STEP = 6;
  private static final long SEED = 20261202L;
  private static final String FOREVER = "99999999999999999";

  enum Run {
    APPEND(s -> s, Map.of("archive.write.buffer-bytes", "8192")),
    ONE_FILE_PER_RUN_THEN_MERGE(
        WithoutAppendMetaStorage::new,
        Map.of(
            "archive.write.buffer-bytes", "8192",
            "hoodie.archive.merge.files.batch.size", "2")),
    UNARCHIVE(s -> s, Map.of());

    final UnaryOperator<MetaStorage> view;
    final Map<String, String> config;

    Run(UnaryOperator<MetaStorage> view, Map<String, String> config) {
      this.view = view;
      this.config = config;
    }

    /** Readies the fixture: an unarchive needs an archive to restore from. */
    void prepare(CrashFixture f) throws Exception {
      if (this == UNARCHIVE) {
        f.archiver(f.memory).archiveIfRequired();
      }
    }

    void run(CrashFixture f, MetaStorage storage) throws Exception {
      if (this == UNARCHIVE) {
        TimelineRestorer.create(storage, f.base, f.config, f.clock)
            .restore("0", FOREVER, true, false);
      } else {
        f.archiver(storage).archiveIfRequired();
      }
    }
  }

  enum Disk {
    ANY_SUBSET(Order.ANY),
    NEWEST_FIRST(Order.NEWEST);

    final Order order;

    Disk(Order order) {
      this.order = order;
    }
  }

  /** What one trial saw, summed for the log and for the checks that the model bites. */
  private static final class Tally {
    int steps;
    int trials;
    int undone;
    int restartsWithHoles;
  }

  @ParameterizedTest
  @EnumSource(Run.class)
  void aPowerLossAnywhereOnADiskThatLosesAnySubset(Run run) throws Exception {
    Tally tally = trials(run, Disk.ANY_SUBSET);
    assertThat(tally.undone).as("some power losses undid deletes").isPositive();
    if (run != Run.UNARCHIVE) {
      // The model bites: deletes of completed instants came back out of order, and re-runs closed
      // the holes.
      assertThat(tally.restartsWithHoles).as("restarts that showed a hole").isPositive();
    }
  }

  @ParameterizedTest
  @EnumSource(Run.class)
  void aPowerLossAnywhereOnADiskThatLosesTheNewestDeletes(Run run) throws Exception {
    Tally tally = trials(run, Disk.NEWEST_FIRST);
    assertThat(tally.undone).as("some power losses undid deletes").isPositive();
    assertThat(tally.restartsWithHoles).as("restarts that showed a hole").isZero();
  }

  /** The deleter's force between the pending and the completed files is what keeps that whole. */
  @Test
  void withoutForcingThePendingDeletesAPowerLossLeavesAPendingLookingInstant() throws Exception {
    for (int k = 1; ; k++) {
      try (CrashFixture f = new CrashFixture(Run.APPEND.config, COMMITS)) {
        PowerLossMetaStorage model = crash(Run.APPEND, f, k, CrashEffect.FULL, NoSync::new);
        int n = model.unforced().size();
        Set<Integer> pendingOnly = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
          if (!model.unforced().get(i).file().fileName().matches("\\d+\\.(commit|clean)")) {
            pendingOnly.add(i);
          }
        }
        if (pendingOnly.size() == n) {
          assertThat(model.mutations())
              .as("step %d: still before the completed files", k)
              .noneMatch(m -> m.matches("delete .*\\d+\\.(commit|clean) .*"));
          continue;
        }
        model.powerLoss(pendingOnly);
        assertThat(f.violations()).as("step %d", k).anyMatch(v -> v.startsWith("pending-looking"));
        return;
      }
    }
  }

  /** A store whose {@code syncDeletes} does nothing, as if the archiver never asked. */
  private static final class NoSync extends ForwardingMetaStorage {
    NoSync(MetaStorage delegate) {
      super(delegate);
    }

    @Override
    public void syncDeletes(StorageLocation folder) {}
  }

  private static Tally trials(Run run, Disk disk) throws Exception {
    int steps;
    List<String> expectedActive;
    List<String> expectedArchive;
    try (CrashFixture reference = new CrashFixture(run.config, COMMITS)) {
      run.prepare(reference);
      FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(reference.memory);
      run.run(reference, run.view.apply(recording));
      if (run == Run.ONE_FILE_PER_RUN_THEN_MERGE) {
        assertThat(reference.leftovers()).isEmpty();
        assertThat(reference.memory.list(reference.archiveFolder).toList())
            .as("the run ends with a merge into one file")
            .hasSize(1);
      }
      steps = recording.mutatingSteps();
      expectedActive = reference.activeNames();
      expectedArchive = reference.archivedIds();
    }
    Tally tally = new Tally();
    tally.steps = steps;
    CrashEffect[] effects = CrashEffect.values();
    for (int k = 1; k <= steps; k++) {
      CrashEffect effect = effects[k % effects.length];
      List<Set<Integer>> losses = null;
      List<String> unforced = null;
      // The first trial of a step learns what the power loss may undo; the others crash a fresh
      // table at the same step and must find the same unforced deletes.
      for (int trial = 0; losses == null || trial < losses.size(); trial++) {
        try (CrashFixture f = new CrashFixture(run.config, COMMITS)) {
          PowerLossMetaStorage model = crash(run, f, k, effect);
          if (losses == null) {
            unforced = inTable(f, model);
            losses = model.losses(disk.order, LOSSES_PER_STEP, new Random(SEED + k));
          }
          Set<Integer> loss = losses.get(trial);
          String what =
              String.format(
                  "%s on %s, step %d of %d (%s), undoing %s of %s (seed %d)",
                  run, disk, k, steps, effect, loss, unforced, SEED + k);
          assertThat(inTable(f, model)).as(what).isEqualTo(unforced);
          model.powerLoss(loss);
          tally.trials++;
          tally.undone += loss.size();
          if (restartAndRerun(run, disk, f, what)) {
            tally.restartsWithHoles++;
          }
          assertThat(f.leftovers()).as("lock and journal after the re-run: %s", what).isEmpty();
          if (run != Run.UNARCHIVE) {
            assertThat(f.activeNames()).as("active: %s", what).containsAll(expectedActive);
            assertThat(expectedArchive).as("archive: %s", what).containsAll(f.archivedIds());
          }
        }
      }
    }
    LOG.info(
        "{} on {}: {} crash points, {} power losses, {} deletes undone, {} restarts with a hole",
        run,
        disk,
        tally.steps,
        tally.trials,
        tally.undone,
        tally.restartsWithHoles);
    return tally;
  }

  /**
   * Checks the table as the restart finds it, then re-runs and checks it again.
   *
   * @return whether the restart showed a hole (allowed only on a disk that loses any subset)
   */
  private static boolean restartAndRerun(Run run, Disk disk, CrashFixture f, String what)
      throws Exception {
    List<String> afterRestart = f.violations();
    List<String> holes = afterRestart.stream().filter(v -> v.startsWith("hole:")).toList();
    if (disk == Disk.ANY_SUBSET) {
      afterRestart = afterRestart.stream().filter(v -> !holes.contains(v)).toList();
    }
    assertThat(afterRestart).as("after the restart: %s", what).isEmpty();
    f.clock.advance(Duration.ofHours(1));
    run.run(f, run.view.apply(f.memory));
    assertThat(f.violations()).as("after the re-run: %s", what).isEmpty();
    return !holes.isEmpty();
  }

  /** The unforced deletes, named within the table: each fixture's table has a new location. */
  private static List<String> inTable(CrashFixture f, PowerLossMetaStorage model) {
    return model.unforced().stream()
        .map(d -> d.file().toString().substring(f.base.toString().length()))
        .toList();
  }

  /** Runs until the simulated crash at step {@code k}; returns the disk as the power goes. */
  private static PowerLossMetaStorage crash(Run run, CrashFixture f, int k, CrashEffect effect)
      throws Exception {
    return crash(run, f, k, effect, s -> s);
  }

  private static PowerLossMetaStorage crash(
      Run run, CrashFixture f, int k, CrashEffect effect, UnaryOperator<MetaStorage> archiverView)
      throws Exception {
    run.prepare(f);
    PowerLossMetaStorage model = new PowerLossMetaStorage(f.memory);
    MetaStorage crashing =
        archiverView.apply(FaultInjectingMetaStorage.crashingAt(model, k, effect));
    try {
      run.run(f, run.view.apply(crashing));
      fail("no crash at step " + k);
    } catch (Exception e) {
      if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
        throw new AssertionError("step " + k + ": not the simulated crash", e);
      }
    }
    return model;
  }
}
