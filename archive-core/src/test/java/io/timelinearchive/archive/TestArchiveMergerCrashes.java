package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.timelinearchive.archive.read.ArchiveFileSummary;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchiveMergePlan;
import io.timelinearchive.storage.FaultInjectingMetaStorage;
import io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash at every mutating step of a run that archives and then merges small archive files, on a
 * store without append (in memory and on local disk), with every effect a crash can have; the
 * invariants hold at the crash, as a reader with the plan sees the archive, and after a clean
 * re-run, which leaves no plan, no duplicate and at most two archive files.
 */
class TestArchiveMergerCrashes {
  @TempDir Path dir;
  private int tables;
  private Path template;
  private Map<String, byte[]> templateOriginal;

  private static void copy(Path from, Path to) throws java.io.IOException {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(from)) {
      for (Path p : files.toList()) {
        java.nio.file.Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  private static final Map<String, String> MERGING =
      MergeScenarios.capped("hoodie.archive.merge.files.batch.size", "4");

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void everyCrashPointOfAMergeIsRecovered(String store) throws Exception {
    int steps;
    try (Fixture reference = new Fixture(store)) {
      FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(reference.storage);
      ArchiveResult result = reference.run(recording);
      assertThat(result.archiveFilesMerged()).hasSize(4);
      steps = recording.mutatingSteps();
    }
    assertThat(steps).isGreaterThan(20);
    CrashEffect[] effects = CrashEffect.values();
    for (int k = 1; k <= steps; k++) {
      for (CrashEffect effect : List.of(effects[k % 3], effects[(k + 1) % 3])) {
        try (Fixture f = new Fixture(store)) {
          try {
            f.run(FaultInjectingMetaStorage.crashingAt(f.storage, k, effect));
            fail("no crash at step " + k + " of " + steps);
          } catch (Exception e) {
            if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
              throw new AssertionError("step " + k + " (" + effect + "): not the crash", e);
            }
          }
          assertThat(f.violations()).as("at the crash, step %d (%s)", k, effect).isEmpty();

          f.clock.advance(Duration.ofHours(1));
          f.run(f.storage);

          assertThat(f.violations()).as("after the re-run, step %d (%s)", k, effect).isEmpty();
          assertThat(f.leftovers()).as("after the re-run, step %d (%s)", k, effect).isEmpty();
          assertThat(MergeScenarios.archiveFiles(f.storage, f.base))
              .as("archive files after the re-run, step %d (%s)", k, effect)
              .hasSizeBetween(1, 2);
          assertThat(
                  ArchivedTimeline.load(f.storage, f.archiveFolder, ArchiveReadOptions.all())
                      .files()
                      .stream()
                      .mapToInt(ArchiveFileSummary::entries)
                      .sum())
              .as("no entry twice in the archive files, step %d (%s)", k, effect)
              .isEqualTo(
                  InvariantChecker.readArchive(f.storage, f.archiveFolder, new ArrayList<>(), false)
                      .size());
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void crashesDuringMergeRecoveryAreRecoveredToo(String store) throws Exception {
    Random random = new Random(11);
    for (int trial = 0; trial < 12; trial++) {
      try (Fixture f = new Fixture(store)) {
        int first = 15 + random.nextInt(20);
        int second = 1 + random.nextInt(8);
        runCrashing(f, first, CrashEffect.values()[trial % 3]);
        f.clock.advance(Duration.ofHours(1));
        runCrashing(f, second, CrashEffect.values()[(trial + 1) % 3]);
        assertThat(f.violations()).as("trial %d after two crashes", trial).isEmpty();
        f.clock.advance(Duration.ofHours(1));
        f.run(f.storage);
        assertThat(f.violations()).as("trial %d after the re-run", trial).isEmpty();
        assertThat(f.leftovers()).as("trial %d", trial).isEmpty();
      }
    }
  }

  private static void runCrashing(Fixture f, int step, CrashEffect effect) throws Exception {
    try {
      f.run(FaultInjectingMetaStorage.crashingAt(f.storage, step, effect));
    } catch (Exception e) {
      if (!FaultInjectingMetaStorage.isSimulatedCrash(e)) {
        throw e;
      }
    }
  }

  private final class Fixture implements AutoCloseable {
    final MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    final StorageLocation base;
    final MetaStorage raw;
    final MetaStorage storage;
    final StorageLocation meta;
    final StorageLocation archiveFolder;
    final InvariantChecker checker;

    Fixture(String store) throws Exception {
      boolean local = store.equals("file");
      if (local && template == null) {
        // Local disk syncs every file it creates: the table and its first three runs are made
        // once and copied for each trial.
        Path t = dir.resolve("template");
        StorageLocation at = StorageLocation.of(t.toAbsolutePath().toString());
        try (MetaStorage s = MetaStorages.open(at, Map.of())) {
          templateOriginal = prepare(new WithoutAppendMetaStorage(s), at);
        }
        template = t;
      }
      base =
          local
              ? StorageLocation.of(dir.resolve("t" + tables++).toAbsolutePath().toString())
              : TestTables.newMemoryTable();
      raw = MetaStorages.open(base, Map.of());
      storage = new WithoutAppendMetaStorage(raw);
      meta = base.resolve(".hoodie");
      archiveFolder = meta.resolve("archived");
      if (local) {
        copy(template, Path.of("/" + base.path()));
        checker = new InvariantChecker(templateOriginal);
      } else {
        checker = new InvariantChecker(prepare(storage, base));
      }
      assertThat(MergeScenarios.archiveFiles(storage, base)).hasSize(3);
    }

    private Map<String, byte[]> prepare(MetaStorage s, StorageLocation at) throws Exception {
      io.timelinearchive.sample.SampleTable.write(s, at, MergeScenarios.table());
      Map<String, byte[]> original = InvariantChecker.snapshot(s, at.resolve(".hoodie"));
      Map<String, String> off = MergeScenarios.capped("hoodie.archive.merge.enable", "false");
      for (int run = 0; run < 3; run++) {
        MergeScenarios.run(s, at, off, clock);
      }
      return original;
    }

    ArchiveResult run(MetaStorage view) throws Exception {
      // the crashing view sits below the no-append view, as a store without append would crash
      MetaStorage s = view == storage ? storage : new WithoutAppendMetaStorage(view);
      return MergeScenarios.run(s, base, MERGING, clock);
    }

    List<String> violations() throws Exception {
      return checker.check(raw, meta, archiveFolder);
    }

    List<String> leftovers() throws Exception {
      return raw.list(archiveFolder).toList().stream()
          .map(FileEntry::name)
          .filter(n -> n.startsWith(".timeline_archive") || n.equals(ArchiveMergePlan.FILE_NAME))
          .toList();
    }

    @Override
    public void close() throws Exception {
      raw.close();
      if (base.scheme().equals("memory")) {
        InMemoryMetaStorageFactory.dropVolume(base.authority());
      }
    }
  }
}
