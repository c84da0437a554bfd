package io.timelinearchive.storage.hdfs;

import static io.timelinearchive.storage.hdfs.TestHdfsMetaStorageMiniDfs.hadoopPath;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The append log on HDFS: durability, visibility, concurrent writers, crashed writers. */
class TestHdfsAppendableLog {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  private StorageLocation root;
  private StorageLocation file;
  private MetaStorage storage;
  private FileSystem other;

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    root = DFS.newRoot(test.getTestMethod().orElseThrow().getName());
    file = root.resolve("archived/.commits_.archive.1_1-0-1");
    storage = open(DFS.config());
    other = DFS.newClient();
  }

  @AfterEach
  void tearDown() throws Exception {
    storage.close();
    abandon(other);
  }

  @Test
  void appendsAcrossLogsAndCreatesAMissingFile() throws Exception {
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      assertThat(log.location()).isEqualTo(file);
      assertThat(log.length()).isZero();
      log.append(bytes("one,"));
      log.append(bytes("two,"));
      assertThat(log.length()).isEqualTo(8);
    }
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      assertThat(log.length()).isEqualTo(8);
      log.append(bytes("three"));
      assertThat(log.length()).isEqualTo(13);
    }

    assertThat(storage.read(file)).asString(UTF_8).isEqualTo("one,two,three");
  }

  @Test
  void appendedBytesAreVisibleAndCountedBeforeTheLogIsClosed() throws Exception {
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(bytes("block-1"));

      try (FSDataInputStream in = other.open(hadoopPath(file))) {
        assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("block-1");
      }
      // UPDATE_LENGTH: the NameNode knows the length of the file still being written.
      assertThat(other.getFileStatus(hadoopPath(file)).getLen()).isEqualTo(7);
      assertThat(storage.list(file.parent()).toList())
          .singleElement()
          .satisfies(entry -> assertThat(entry.length()).isEqualTo(7));
    }
  }

  @Test
  void refusesToAppendWhenTheFileGrewUnderTheLog() throws Exception {
    AppendableLog log = storage.openLog(file).orElseThrow();
    log.append(bytes("mine,"));
    // Another client takes the file over, as a second archiver would, and appends.
    DistributedFileSystem dfs = (DistributedFileSystem) other;
    awaitRecovered(dfs, hadoopPath(file));
    try (FSDataOutputStream out = dfs.append(hadoopPath(file))) {
      out.write(bytes("theirs"));
    }

    assertThatThrownBy(() -> log.append(bytes("late")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("expected length 5, found 11");
    assertThatThrownBy(() -> log.append(bytes("later")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("earlier append");
    assertThat(storage.read(file)).asString(UTF_8).isEqualTo("mine,theirs");
    closeBroken(log);
  }

  @Test
  void appendingToADeletedFileFailsWithNoSuchFile() throws Exception {
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(bytes("x"));
      other.delete(hadoopPath(file), false);

      assertThatThrownBy(() -> log.append(bytes("y"))).isInstanceOf(NoSuchFileException.class);
    } catch (IOException closing) {
      // closing a deleted file under construction fails; the append above is what counts
    }
  }

  @Test
  void takesOverAFileLeftOpenByACrashedWriterWithoutLosingItsDurableBytes() throws Exception {
    FSDataOutputStream crashed = other.create(hadoopPath(file), false);
    crashed.write(bytes("block-1;"));
    crashed.hsync();
    crashed.write(bytes("block-2;"));
    crashed.hflush();
    crashed.write(bytes("torn-blo")); // never flushed: the writer dies here, stream open

    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      String recovered = new String(storage.read(file), UTF_8);
      assertThat(recovered).startsWith("block-1;block-2;");
      assertThat("block-1;block-2;torn-blo").startsWith(recovered);
      assertThat(log.length()).isEqualTo(recovered.length());

      log.append(bytes("block-3;"));

      assertThat(storage.read(file)).asString(UTF_8).isEqualTo(recovered + "block-3;");
    }
  }

  @Test
  void takesOverALogOfAnArchiverThatDiedWithoutClosingIt() throws Exception {
    MetaStorage dead = open(DFS.config());
    AppendableLog abandoned = dead.openLog(file).orElseThrow();
    abandoned.append(bytes("run-1;"));
    abandoned.append(bytes("run-2;"));

    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      assertThat(log.length()).isEqualTo(12);
      log.append(bytes("run-3;"));
    }

    assertThat(storage.read(file)).asString(UTF_8).isEqualTo("run-1;run-2;run-3;");
    assertThatThrownBy(() -> abandoned.append(bytes("zombie"))).isInstanceOf(IOException.class);
    assertThat(storage.read(file)).asString(UTF_8).isEqualTo("run-1;run-2;run-3;");
    closeBroken(abandoned);
    closeBroken(dead);
  }

  @Test
  void refusesASecondLogOfOneStorageOnOneFile() throws Exception {
    try (AppendableLog first = storage.openLog(file).orElseThrow()) {
      assertThatThrownBy(() -> storage.openLog(file))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("already open");
      first.append(bytes("still mine"));
    }
    try (AppendableLog again = storage.openLog(file).orElseThrow()) {
      assertThat(again.length()).isEqualTo(10);
    }
  }

  @Test
  void failsCleanlyWhenTheLeaseCannotBeRecoveredInTime() throws Exception {
    FSDataOutputStream crashed = other.create(hadoopPath(file), false);
    crashed.write(bytes("durable;"));
    crashed.hsync();

    Map<String, String> impatient = new HashMap<>(DFS.config());
    impatient.put(HdfsConfig.LEASE_RECOVERY_TIMEOUT.key(), "0s");
    try (MetaStorage hurried = open(impatient)) {
      assertThatThrownBy(() -> hurried.openLog(file))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining(HdfsConfig.LEASE_RECOVERY_TIMEOUT.key());
    }

    // The recovery started goes on; the bytes are kept and a patient archiver gets the file.
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      assertThat(log.length()).isEqualTo(8);
      log.append(bytes("next;"));
    }
    assertThat(storage.read(file)).asString(UTF_8).isEqualTo("durable;next;");
  }

  private MetaStorage open(Map<String, String> config) throws IOException {
    return new HdfsMetaStorageFactory().open(root, config);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  private static void awaitRecovered(DistributedFileSystem dfs, org.apache.hadoop.fs.Path path)
      throws Exception {
    boolean closed = dfs.recoverLease(path);
    for (int i = 0; !closed && i < 600; i++) {
      Thread.sleep(100);
      closed = dfs.isFileClosed(path);
    }
    assertThat(closed).as("lease of %s recovered", path).isTrue();
  }

  /** Ends a client as a crash would: its open files are dropped, not completed. */
  private static void abandon(FileSystem fs) throws IOException {
    ((DistributedFileSystem) fs).getClient().closeAllFilesBeingWritten(true);
    fs.close();
  }

  private static void closeBroken(java.io.Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException expected) {
      // it lost its lease; closing it cannot complete the file
    }
  }
}
