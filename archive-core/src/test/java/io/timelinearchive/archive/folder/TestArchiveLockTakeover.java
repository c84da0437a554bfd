package io.timelinearchive.archive.folder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.MutableClock;
import io.timelinearchive.archive.TestTables;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A crashed holder does not block the next run for a whole lease: on its own host its process is
 * seen to be gone; elsewhere an operator releases it.
 */
class TestArchiveLockTakeover {
  private static final Duration LEASE = Duration.ofMinutes(10);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T12:00:00Z"));
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage storage = TestTables.memory(base);
  private final StorageLocation folder = base.resolve(".hoodie").resolve("archived");

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  @Test
  void aHolderWhoseProcessEndedOnThisHostIsTakenOverAtOnce() throws Exception {
    Process finished =
        new ProcessBuilder(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    Instant started = finished.info().startInstant().orElseThrow();
    finished.waitFor();
    writeHolder(1, "crashed", new HolderProcess(thisHost(), finished.pid(), started));

    try (ArchiveLock lock = acquire("next")) {
      assertThat(lock.owner()).isEqualTo("next");
      assertThatThrownBy(() -> storage.read(folder.resolve(ArchiveLock.PREFIX + 1)))
          .as("the dead holder's file")
          .isInstanceOf(java.nio.file.NoSuchFileException.class);
    }
  }

  @Test
  void aProcessIdNowUsedByAnotherProcessIsTakenOverToo() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    Instant otherStart = self.info().startInstant().orElseThrow().minusSeconds(3600);
    writeHolder(1, "crashed", new HolderProcess(thisHost(), self.pid(), otherStart));

    try (ArchiveLock lock = acquire("next")) {
      assertThat(lock.owner()).isEqualTo("next");
    }
  }

  @Test
  void aLiveHolderOnThisHostKeepsTheLock() throws Exception {
    try (ArchiveLock held = acquire("first")) {
      assertThatThrownBy(() -> acquire("second"))
          .isInstanceOf(ArchiveLockedException.class)
          .hasMessageContaining("locked by first");
      held.check();
    }
  }

  @Test
  void aHolderOnAnotherHostOrWithoutAProcessKeepsTheLockUntilItsLeaseEnds() throws Exception {
    writeHolder(1, "elsewhere", new HolderProcess("another-host/boot/ns", 1, Instant.EPOCH));
    assertThatThrownBy(() -> acquire("next"))
        .isInstanceOf(ArchiveLockedException.class)
        .hasMessageContaining("locked by elsewhere")
        .hasMessageContaining("timeline-archive unlock TABLE_URI --owner elsewhere");

    // a lock file from before processes were recorded
    storage.createExclusive(
        folder.resolve(ArchiveLock.PREFIX + 2),
        ("owner=older\nexpiry=" + clock.instant().plus(LEASE) + "\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThatThrownBy(() -> acquire("next")).hasMessageContaining("locked by older");

    clock.advance(LEASE);
    try (ArchiveLock lock = acquire("next")) {
      assertThat(lock.owner()).isEqualTo("next");
    }
  }

  @Test
  void anOperatorReleasesAHolderThatHasNotRenewedForAMinute() throws Exception {
    ArchiveLock paused = acquire("paused");
    assertThatThrownBy(() -> unlock("someone-else", false))
        .isInstanceOf(ArchiveLockedException.class)
        .hasMessageContaining("locked by paused, not by someone-else");
    assertThatThrownBy(() -> unlock("paused", false))
        .isInstanceOf(ArchiveLockedException.class)
        .hasMessageContaining("within the last minute");

    clock.advance(Duration.ofMinutes(1).plusSeconds(1));
    assertThat(unlock("paused", false)).isTrue();
    assertThat(unlock("paused", false)).as("nothing left to release").isFalse();
    try (ArchiveLock next = acquire("next")) {
      assertThat(next.owner()).isEqualTo("next");
    }
    // the holder, alive after all, stops at its next check
    assertThatThrownBy(paused::check).isInstanceOf(ArchiveLockedException.class);
  }

  @Test
  void forceReleasesEvenARecentlyRenewedLock() throws Exception {
    ArchiveLock held = acquire("held");
    assertThat(unlock("held", true)).isTrue();
    assertThatThrownBy(held::check).isInstanceOf(ArchiveLockedException.class);
  }

  @Test
  void aLockFileRecordsItsHolderProcess() throws Exception {
    try (ArchiveLock lock = acquire("me")) {
      String content =
          new String(
              storage.read(folder.resolve(ArchiveLock.PREFIX + 1)),
              java.nio.charset.StandardCharsets.UTF_8);
      assertThat(content)
          .contains("owner=me\n")
          .contains("written=" + clock.instant())
          .contains("pid=" + ProcessHandle.current().pid())
          .contains("host=" + thisHost());
    }
  }

  private ArchiveLock acquire(String owner) throws IOException {
    return ArchiveLock.acquire(storage, ArchiveFolder.list(storage, folder), owner, LEASE, clock);
  }

  private boolean unlock(String owner, boolean force) throws IOException {
    return ArchiveLock.unlock(storage, ArchiveFolder.list(storage, folder), owner, force, clock);
  }

  private void writeHolder(long generation, String owner, HolderProcess process)
      throws IOException {
    ArchiveLock.Holder holder =
        new ArchiveLock.Holder(
            owner, clock.instant().plus(LEASE), Optional.of(clock.instant()), Optional.of(process));
    storage.createExclusive(folder.resolve(ArchiveLock.PREFIX + generation), holder.encode());
  }

  private static String thisHost() {
    return HolderProcess.ofThisProcess().host();
  }
}
