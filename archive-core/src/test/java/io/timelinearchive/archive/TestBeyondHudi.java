package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.folder.ArchiveLockedException;
import io.timelinearchive.archive.restore.RestoreRefusedException;
import io.timelinearchive.archive.restore.TimelineRestorer;
import io.timelinearchive.format.ArchiveBlockEncoder;
import io.timelinearchive.format.ArchiveEntry;
import io.timelinearchive.format.ArchiveEntryConverter;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BeyondHudiScenarios} in memory and on local disk, and what only one store needs. */
class TestBeyondHudi {
  @TempDir Path dir;
  private final StorageLocation memoryBase = TestTables.newMemoryTable();

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(memoryBase.authority());
  }

  private StorageLocation base(String store) {
    return store.equals("memory")
        ? memoryBase
        : StorageLocation.of(dir.resolve("t").toAbsolutePath().toString());
  }

  interface Scenario {
    void run(MetaStorage storage, StorageLocation base) throws Exception;
  }

  private void run(String store, Scenario scenario) throws Exception {
    StorageLocation base = base(store);
    try (MetaStorage storage = MetaStorages.open(base, Map.of())) {
      scenario.run(storage, base);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void minAgeStopsAtTheCutoff(String store) throws Exception {
    run(store, BeyondHudiScenarios::minAgeStopsAtTheCutoff);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void runCapSpreadsTheWorkOverRuns(String store) throws Exception {
    run(store, BeyondHudiScenarios::runCapSpreadsTheWorkOverRuns);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void unarchiveRestoresByteExactly(String store) throws Exception {
    run(store, BeyondHudiScenarios::unarchiveRestoresByteExactly);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void unarchiveNeverOverwrites(String store) throws Exception {
    run(store, BeyondHudiScenarios::unarchiveNeverOverwrites);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void historyMaxAgePurgesOldArchiveFiles(String store) throws Exception {
    run(store, BeyondHudiScenarios::historyMaxAgePurgesOldArchiveFiles);
  }

  @Test
  void entriesWithoutRawBytesAreRefused() throws Exception {
    try (MetaStorage storage = MetaStorages.open(memoryBase, Map.of())) {
      SampleTable.Written written =
          SampleTable.write(storage, memoryBase, BeyondHudiScenarios.table());
      StorageLocation meta = memoryBase.resolve(".hoodie");
      // what Hudi's own archiver leaves: the converted entry, no raw bytes, file gone from .hoodie
      TimelineInstant first =
          written.files().values().stream()
              .filter(i -> i.action() == Action.COMMIT && i.isCompleted())
              .min(TimelineInstant.ORDER)
              .orElseThrow();
      StorageLocation file = meta.resolve(first.fileName());
      ArchiveEntry converted =
          ArchiveEntryConverter.create()
              .convert(first, java.time.Instant.EPOCH, storage.read(file));
      ArchiveEntry entry = ArchiveEntry.of(converted.instant(), converted.record());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ArchiveBlockEncoder.encode(List.of(entry)).forEach(out::writeBytes);
      storage.createExclusive(
          meta.resolve("archived").resolve(".commits_.archive.1_1-0-1"), out.toByteArray());
      storage.deleteAll(List.of(file));

      try (TimelineRestorer restorer =
          TimelineRestorer.create(storage, memoryBase, Map.of(), java.time.Clock.systemUTC())) {
        assertThatThrownBy(() -> restorer.restore(first.time(), first.time(), true, false))
            .isInstanceOf(RestoreRefusedException.class)
            .hasMessageContaining(first + " has no raw bytes in the archive");
      }
      assertThat(storage.list(meta).toList()).noneMatch(f -> f.name().equals(first.fileName()));
    }
  }

  @Test
  void unarchiveWaitsForARunningArchiver() throws Exception {
    try (MetaStorage storage = MetaStorages.open(memoryBase, Map.of())) {
      SampleTable.write(storage, memoryBase, BeyondHudiScenarios.table());
      StorageLocation archiveFolder = memoryBase.resolve(".hoodie").resolve("archived");
      MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
      try (ArchiveLock held =
          ArchiveLock.acquire(
              storage,
              ArchiveFolder.of(archiveFolder, List.of()),
              "other",
              java.time.Duration.ofMinutes(5),
              clock)) {
        try (TimelineRestorer restorer =
            TimelineRestorer.create(storage, memoryBase, Map.of(), clock)) {
          assertThatThrownBy(() -> restorer.restore("0", "9", true, false))
              .isInstanceOf(ArchiveLockedException.class);
        }
      }
    }
  }
}
