package io.timelinearchive.storage.hdfs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage contract, and what HDFS adds to it, on a real (in-process) HDFS. */
class TestHdfsMetaStorageMiniDfs extends AbstractMetaStorageContractTest {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  private MetaStorage storage;
  private FileSystem client;

  @BeforeEach
  void open() throws Exception {
    storage = new HdfsMetaStorageFactory().open(DFS.newRoot("contract"), DFS.config());
    client = DFS.newClient();
  }

  @AfterEach
  void close() throws Exception {
    storage.close();
    client.close();
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return DFS.newRoot("contract");
  }

  @Override
  protected boolean hasAppend() {
    return true;
  }

  @Override
  protected int listingFileCount() {
    return MiniDfs.LIST_PAGE_SIZE * 5 / 2;
  }

  @Override
  protected int deleteBatchFileCount() {
    return 100; // HDFS deletes one file per call: any count spans "batches"
  }

  @Test
  void listingAFileListsNothing() throws Exception {
    storage.createExclusive(root().resolve("file"), new byte[1]);

    assertThat(storage.list(root().resolve("file")).toList()).isEmpty();
  }

  @Test
  void filesStillBeingCreatedAreNotListed() throws Exception {
    try (FSDataOutputStream out =
        client.create(
            hadoopPath(root().resolve(HdfsExclusiveCreate.TEMP_PREFIX + "1234")), false)) {
      out.write(1);
    }
    storage.createExclusive(root().resolve("visible"), new byte[1]);

    assertThat(storage.list(root()).toList())
        .extracting(FileEntry::name)
        .containsExactly("visible");
  }

  @Test
  void aFileAKilledWriterLeftOpenListsShortButReadsToItsEnd() throws Exception {
    // What the SPI's "exact lengths" says of HDFS (3.5.0): the NameNode learns the length of a file
    // under construction at the first flush of its last block only (when it records the block), so
    // it lists the file without what later flushes added; readers get those bytes from DataNodes.
    StorageLocation file = root().resolve("left-open");
    byte[] content = "run-1;run-2;".getBytes(UTF_8);
    FSDataOutputStream killed = client.create(hadoopPath(file), false);
    try {
      killed.write(content, 0, 6);
      killed.hflush();
      killed.write(content, 6, 6);
      killed.hflush();

      assertThat(storage.list(root()).toList())
          .singleElement()
          .satisfies(entry -> assertThat(entry.length()).isLessThan(content.length));
      assertThat(storage.read(file)).isEqualTo(content);
      try (InputStream in = storage.open(file)) {
        assertThat(in.readAllBytes()).isEqualTo(content);
      }
    } finally {
      // Dies as a killed writer does: the file is left for lease recovery, not completed.
      ((DistributedFileSystem) client).getClient().closeAllFilesBeingWritten(true);
    }
  }

  @Test
  void createExclusiveRacedByEightClientsHasExactlyOneWinner() throws Exception {
    // The contract's race shares one client; separate archivers have separate DFSClients.
    StorageLocation file = root().resolve("race");
    int writers = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Boolean>> outcomes = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        byte[] content = ("writer-" + i).getBytes(UTF_8);
        MetaStorage own = new HdfsMetaStorageFactory().open(root(), DFS.config());
        Callable<Boolean> write =
            () -> {
              try (own) {
                start.await();
                own.createExclusive(file, content);
                return true;
              } catch (FileAlreadyExistsException e) {
                return false;
              }
            };
        outcomes.add(pool.submit(write));
      }
      start.countDown();
      int winners = 0;
      for (Future<Boolean> outcome : outcomes) {
        winners += outcome.get(60, TimeUnit.SECONDS) ? 1 : 0;
      }

      assertThat(winners).isEqualTo(1);
      assertThat(storage.read(file)).asString(UTF_8).matches("writer-[0-7]");
      assertThat(allNames(root())).as("temporary files left").containsExactly("race");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void targetsMayUseTheLongestNameHdfsAllows() throws Exception {
    String name = "x".repeat(255); // dfs.namenode.fs-limits.max-component-length
    storage.createExclusive(root().resolve(name), new byte[] {1});

    assertThat(storage.read(root().resolve(name))).containsExactly(1);
  }

  @Test
  void deleteAllNamesWhatItCouldNotDeleteAndDeletesTheRest() throws Exception {
    StorageLocation two = root().resolve("two");
    StorageLocation full = root().resolve("full");
    storage.createExclusive(two, new byte[1]);
    storage.createExclusive(full.resolve("inside"), new byte[1]);

    assertThatThrownBy(() -> storage.deleteAll(List.of(full, two)))
        .isInstanceOfSatisfying(
            DeleteFailedException.class, e -> assertThat(e.failures()).containsOnlyKeys(full))
        .hasMessageContaining(full.toString());
    assertThat(allNames(root())).containsExactly("full");
  }

  @Test
  void refusesLocationsOnAnotherNameNode() throws Exception {
    StorageLocation here = root().resolve("x");
    StorageLocation elsewhere = new StorageLocation("hdfs", "other-nn:8020", here.path());

    assertThatThrownBy(() -> storage.read(elsewhere)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> storage.deleteAll(List.of(here, elsewhere)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private List<String> allNames(StorageLocation folder) throws Exception {
    return Arrays.stream(client.listStatus(hadoopPath(folder)))
        .map(FileStatus::getPath)
        .map(Path::getName)
        .sorted()
        .toList();
  }

  static Path hadoopPath(StorageLocation location) {
    return new Path("/" + location.path());
  }
}
