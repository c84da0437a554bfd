package io.timelinearchive.storage.hdfs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage operations on a real (in-process) HDFS. */
class TestHdfsMetaStorageMiniDfs {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  private StorageLocation root;
  private MetaStorage storage;
  private FileSystem client;

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    root = DFS.newRoot(test.getTestMethod().orElseThrow().getName());
    storage = new HdfsMetaStorageFactory().open(root, DFS.config());
    client = DFS.newClient();
  }

  @AfterEach
  void tearDown() throws Exception {
    storage.close();
    client.close();
  }

  @Test
  void listsTheFilesDirectlyInAFolderSortedByUtf8Bytes() throws Exception {
    // U+FFFD sorts before U+1F600 in UTF-8 (EF.. < F0..) but after it in UTF-16 (FFFD > D83D).
    List<String> names = List.of("b", "a.commit", "\uD83D\uDE00", "\uFFFD", "B", "a");
    for (String name : names) {
      storage.createExclusive(root.resolve(name), name.getBytes(UTF_8));
    }
    storage.createExclusive(root.resolve("sub/nested"), new byte[3]);
    client.mkdirs(hadoopPath(root.resolve("emptyFolder")));

    List<FileEntry> entries = storage.list(root).toList();

    assertThat(entries)
        .extracting(FileEntry::name)
        .containsExactly("B", "a", "a.commit", "b", "\uFFFD", "\uD83D\uDE00");
    for (FileEntry entry : entries) {
      assertThat(entry.location()).isEqualTo(root.resolve(entry.name()));
      assertThat(entry.length()).isEqualTo(entry.name().getBytes(UTF_8).length);
      assertThat(entry.lastModified()).isAfter(java.time.Instant.EPOCH);
    }
    assertThat(storage.list(root.resolve("sub")).toList())
        .extracting(FileEntry::name)
        .containsExactly("nested");
  }

  @Test
  void listsAMissingFolderOrAFileAsEmpty() throws Exception {
    storage.createExclusive(root.resolve("file"), new byte[1]);

    assertThat(storage.list(root.resolve("missing")).toList()).isEmpty();
    assertThat(storage.list(root.resolve("file")).toList()).isEmpty();
  }

  @Test
  void leavesFilesStillBeingCreatedOutOfListings() throws Exception {
    try (FSDataOutputStream out =
        client.create(
            hadoopPath(root.resolve(HdfsMetaStorage.TEMP_PREFIX + "1234-instant")), false)) {
      out.write(1);
    }
    storage.createExclusive(root.resolve("visible"), new byte[1]);

    assertThat(storage.list(root).toList()).extracting(FileEntry::name).containsExactly("visible");
  }

  @Test
  void readsWhatWasCreated() throws Exception {
    byte[] content = new byte[300_000]; // more than one packet
    new java.util.Random(1).nextBytes(content);
    storage.createExclusive(root.resolve(".hoodie/20240101000000000.commit"), content);

    assertThat(storage.read(root.resolve(".hoodie/20240101000000000.commit"))).isEqualTo(content);
    try (InputStream in = storage.open(root.resolve(".hoodie/20240101000000000.commit"))) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
    storage.createExclusive(root.resolve("empty"), new byte[0]);
    assertThat(storage.read(root.resolve("empty"))).isEmpty();
  }

  @Test
  void readingAMissingFileFailsWithNoSuchFile() {
    assertThatThrownBy(() -> storage.read(root.resolve("missing")))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(root.resolve("missing").toString());
    assertThatThrownBy(() -> storage.open(root.resolve("missing")).close())
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void createExclusiveFailsOnAnExistingFileAndLeavesItAlone() throws Exception {
    StorageLocation file = root.resolve("lock");
    storage.createExclusive(file, "first".getBytes(UTF_8));

    assertThatThrownBy(() -> storage.createExclusive(file, "second".getBytes(UTF_8)))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(file.toString());
    assertThat(storage.read(file)).asString(UTF_8).isEqualTo("first");
    assertThat(allNames(root)).containsExactly("lock");
  }

  @Test
  void createExclusiveRacedByEightWritersHasExactlyOneWinner() throws Exception {
    StorageLocation file = root.resolve("race");
    int writers = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Boolean>> outcomes = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        byte[] content = ("writer-" + i).getBytes(UTF_8);
        // Each writer has its own client, as separate archivers would.
        MetaStorage own = new HdfsMetaStorageFactory().open(root, DFS.config());
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
      assertThat(allNames(root)).containsExactly("race");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void createExclusiveMakesTheParentFolders() throws Exception {
    storage.createExclusive(root.resolve("a/b/c"), new byte[] {7});

    assertThat(storage.read(root.resolve("a/b/c"))).containsExactly(7);
  }

  @Test
  void deleteAllIgnoresMissingFilesAndNamesEveryFailure() throws Exception {
    storage.createExclusive(root.resolve("one"), new byte[1]);
    storage.createExclusive(root.resolve("two"), new byte[1]);
    storage.createExclusive(root.resolve("full/inside"), new byte[1]);

    storage.deleteAll(List.of(root.resolve("one"), root.resolve("missing")));
    assertThat(allNames(root)).containsExactly("full", "two");

    assertThatThrownBy(() -> storage.deleteAll(List.of(root.resolve("full"), root.resolve("two"))))
        .isInstanceOfSatisfying(
            DeleteFailedException.class,
            e -> assertThat(e.failures()).containsOnlyKeys(root.resolve("full")))
        .hasMessageContaining(root.resolve("full").toString());
    assertThat(allNames(root)).containsExactly("full");
  }

  @Test
  void refusesLocationsOfAnotherStore() {
    StorageLocation elsewhere = new StorageLocation("hdfs", "other-nn:8020", root.path());

    assertThatThrownBy(() -> storage.read(elsewhere)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> storage.deleteAll(List.of(root.resolve("x"), elsewhere)))
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
