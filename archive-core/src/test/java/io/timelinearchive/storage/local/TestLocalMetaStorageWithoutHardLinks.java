package io.timelinearchive.storage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The createExclusive fallback for file systems without hard links (FAT, some FUSE mounts). */
class TestLocalMetaStorageWithoutHardLinks extends AbstractMetaStorageContractTest {
  @TempDir Path dir;
  private final MetaStorage storage = new LocalMetaStorage(false, Duration.ofSeconds(10));

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return TestLocalMetaStorage.location(dir.resolve("root"));
  }

  @Override
  protected boolean hasAppend() {
    return true;
  }

  @Test
  void testNoLockOrTemporaryFilesRemain() throws Exception {
    StorageLocation file = TestLocalMetaStorage.location(dir.resolve("a/file"));
    storage.createExclusive(file, new byte[] {1});
    assertThatThrownBy(() -> storage.createExclusive(file, new byte[] {2}))
        .isInstanceOf(FileAlreadyExistsException.class);

    assertThat(TestLocalMetaStorage.everything(dir)).containsExactly("a", "a/file");
  }

  @Test
  void testWriterWaitsWhileAnotherHoldsTheName() throws Exception {
    // Writer A is inside its check-and-rename (the test holds the lock folder for it); writer B
    // must wait for A, then find A's file, not check and rename during A's turn.
    StorageLocation file = TestLocalMetaStorage.location(dir.resolve("file"));
    Path lock = lockOf(file);
    Files.createDirectory(lock);
    AtomicReference<Throwable> outcomeOfB = new AtomicReference<>();
    Thread writerB =
        new Thread(
            () -> {
              try {
                storage.createExclusive(file, new byte[] {2});
              } catch (Throwable t) {
                outcomeOfB.set(t);
              }
            });
    writerB.start();
    while (writerB.isAlive() && writerB.getState() != Thread.State.TIMED_WAITING) {
      Thread.onSpinWait();
    }
    assertThat(writerB.isAlive()).as("writer B waits while A holds the name").isTrue();

    Files.write(dir.resolve("file"), new byte[] {1}); // A's rename
    Files.delete(lock); // A's turn ends
    writerB.join();

    assertThat(outcomeOfB.get()).isInstanceOf(FileAlreadyExistsException.class);
    assertThat(storage.read(file)).containsExactly(1);
    assertThat(TestLocalMetaStorage.everything(dir)).containsExactly("file");
  }

  private static Path lockOf(StorageLocation file) {
    return Path.of("/" + file.path())
        .resolveSibling(
            ".tla-lock-" + UUID.nameUUIDFromBytes(file.path().getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void testLockLeftByACrashedWriterIsNamed() throws Exception {
    StorageLocation file = TestLocalMetaStorage.location(dir.resolve("file"));
    Path lock = lockOf(file);
    Files.createDirectory(lock);
    MetaStorage impatient = new LocalMetaStorage(false, Duration.ofMillis(50));

    assertThatThrownBy(() -> impatient.createExclusive(file, new byte[] {1}))
        .hasMessageContaining(lock.toString())
        .hasMessageContaining("delete that folder");
    assertThat(TestLocalMetaStorage.everything(dir)).containsExactly(lock.getFileName().toString());

    Files.delete(lock);
    impatient.createExclusive(file, new byte[] {1});
    assertThat(impatient.read(file)).containsExactly(1);
  }
}
