package io.timelinearchive.storage.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The storage contract on Hadoop's RawLocalFileSystem: a second Hadoop FileSystem, one that lists
 * in no particular order and renames unlike HDFS. Routed through Hadoop with {@code
 * hadoop.schemes=file}, as a user would route another Hadoop scheme.
 */
class TestHdfsMetaStorageRawLocal extends AbstractMetaStorageContractTest {
  private static final Map<String, String> RAW_LOCAL =
      Map.of(
          HdfsConfig.SCHEMES.key(),
          "file",
          // The default LocalFileSystem writes .crc side files (which would be listed) and
          // cannot append.
          "hadoop.fs.file.impl",
          "org.apache.hadoop.fs.RawLocalFileSystem",
          "hadoop.fs.AbstractFileSystem.file.impl",
          "org.apache.hadoop.fs.local.RawLocalFs");

  private Path dir;
  private MetaStorage storage;

  @BeforeEach
  void open() throws Exception {
    Path base = Files.createDirectories(Path.of("target", "rawlocal")).toAbsolutePath();
    dir = Files.createTempDirectory(base, "contract-");
    storage = new HdfsMetaStorageFactory().open(StorageLocation.of(dir.toString()), RAW_LOCAL);
  }

  @AfterEach
  void close() throws Exception {
    storage.close();
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return StorageLocation.of(dir.resolve(UUID.randomUUID().toString()).toString());
  }

  // RawLocalFileSystem neither pages listings nor batches deletes, and without Hadoop's native
  // library each file it creates costs a chmod process: a few files show what the suite checks.
  @Override
  protected int listingFileCount() {
    return 60;
  }

  @Override
  protected int deleteBatchFileCount() {
    return 60;
  }

  /**
   * RawLocalFileSystem appends through a plain BufferedOutputStream (Hadoop 3.5.0), whose hsync
   * only flushes to the OS: the bytes would not survive a power loss, so it offers no append log.
   */
  @Override
  protected boolean hasAppend() {
    return false;
  }

  /**
   * A gap of the store, not of the backend: RawLocalFileSystem renames without overwrite by first
   * checking the target and then renaming (FileSystem.rename(Path, Path, Options.Rename...)), so
   * two racing writers can both win, about one round in a hundred here; see
   * https://github.com/apache/iceberg/pull/1559 ("local FS doesn't provide atomic rename, even
   * without overwrite"). HDFS checks and renames in one NameNode operation, and
   * TestHdfsMetaStorageMiniDfs runs the full race. What holds here: each round has a winner and the
   * file holds exactly one writer's whole content.
   */
  @Test
  @Override
  public void testCreateExclusiveRaceHasOneWinner() throws Exception {
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int round = 0; round < createRaceRounds(); round++) {
        StorageLocation file = root().resolve("race-" + round);
        CountDownLatch go = new CountDownLatch(1);
        List<byte[]> contents = new ArrayList<>();
        List<Future<Boolean>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          byte[] content = randomBytes(1000 + w, round * 100L + w);
          contents.add(content);
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    try {
                      storage.createExclusive(file, content);
                      return true;
                    } catch (FileAlreadyExistsException e) {
                      return false;
                    }
                  }));
        }
        go.countDown();
        List<byte[]> winners = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          if (results.get(w).get(60, TimeUnit.SECONDS)) {
            winners.add(contents.get(w));
          }
        }

        assertThat(winners).as("writers that created %s", file).isNotEmpty();
        byte[] stored = storage.read(file);
        assertThat(winners)
            .as("content of %s", file)
            .anySatisfy(w -> assertThat(w).isEqualTo(stored));
      }
      assertThat(storage.list(root()).toList()).hasSize(createRaceRounds());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theChecksummingLocalFileSystemHasNoAppendLogEither() throws Exception {
    try (MetaStorage checksummed =
        new HdfsMetaStorageFactory()
            .open(StorageLocation.of(dir.toString()), Map.of(HdfsConfig.SCHEMES.key(), "file"))) {
      assertThat(checksummed.openLog(root().resolve("log"))).isEmpty();
      assertThat(checksummed.list(root()).toList()).isEmpty();
    }
  }
}
