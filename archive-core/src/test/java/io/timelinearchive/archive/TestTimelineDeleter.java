package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.folder.ArchiveLockedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Invariant 2: pending files first, in one call; then completed ones one call each, oldest first.
 */
class TestTimelineDeleter {
  private final MutableClock clock =
      new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage memory = TestTables.memory(base);
  private final StorageLocation meta = base.resolve(".hoodie");
  private final List<List<String>> calls = new ArrayList<>();
  private final List<Phase> phases = new ArrayList<>();

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  @Test
  void deletesPendingFilesFirstThenCompletedOnesOldestFirst() throws Exception {
    List<TimelineFile> files =
        List.of(
            file("003", Action.COMMIT, State.COMPLETED),
            file("001", Action.COMMIT, State.REQUESTED),
            file("002", Action.CLEAN, State.COMPLETED),
            file("001", Action.COMMIT, State.COMPLETED),
            file("003", Action.COMMIT, State.INFLIGHT),
            file("002", Action.CLEAN, State.REQUESTED));
    try (ArchiveLock lock = lock()) {
      deleter(lock).delete(files);
    }

    assertThat(calls)
        .containsExactly(
            List.of("001.commit.requested", "003.inflight", "002.clean.requested"),
            List.of("001.commit"),
            List.of("002.clean"),
            List.of("003.commit"));
    assertThat(phases).containsExactly(Phase.DELETE_PENDING, Phase.DELETE_COMPLETED);
    assertThat(memory.list(meta).toList()).extracting(FileEntry::name).isEmpty();
  }

  @Test
  void aHolderPastItsLeaseDeletesNothing() throws Exception {
    List<TimelineFile> files =
        List.of(
            file("001", Action.COMMIT, State.INFLIGHT),
            file("001", Action.COMMIT, State.COMPLETED));
    try (ArchiveLock lock = lock()) {
      clock.advance(Duration.ofMinutes(9));
      assertThatThrownBy(() -> deleter(lock).delete(files))
          .isInstanceOf(ArchiveLockedException.class);
    }
    assertThat(calls).isEmpty();
    assertThat(memory.list(meta).toList()).hasSize(2);
  }

  @Test
  void nothingToDeleteIsNoCallAndNoPhase() throws Exception {
    try (ArchiveLock lock = lock()) {
      deleter(lock).delete(List.of());
    }
    assertThat(calls).isEmpty();
    assertThat(phases).isEmpty();
  }

  private ArchiveLock lock() throws IOException {
    StorageLocation folder = meta.resolve("archived");
    return ArchiveLock.acquire(
        memory, ArchiveFolder.list(memory, folder), "test", Duration.ofMinutes(10), clock);
  }

  private TimelineDeleter deleter(ArchiveLock lock) throws IOException {
    MetaStorage recording =
        new ForwardingMetaStorage(memory) {
          @Override
          public void deleteAll(Collection<StorageLocation> files) throws IOException {
            calls.add(files.stream().map(StorageLocation::fileName).toList());
            super.deleteAll(files);
          }
        };
    RunReport report =
        new RunReport(new CountingMetaStorage(memory), phases::add, System::nanoTime);
    report.enter(Phase.READ);
    phases.clear();
    return new TimelineDeleter(recording, lock, report);
  }

  private TimelineFile file(String time, Action action, State state) throws IOException {
    TimelineInstant instant = new TimelineInstant(time, action, state);
    StorageLocation location = meta.resolve(instant.fileName());
    memory.createExclusive(location, new byte[0]);
    return new TimelineFile(instant, new FileEntry(location, 0, clock.instant()));
  }
}
