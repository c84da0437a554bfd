package io.timelinearchive.storage.hdfs;

import static io.timelinearchive.storage.hdfs.TestHdfsMetaStorageMiniDfs.hadoopPath;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.nio.file.FileAlreadyExistsException;
import java.util.HashMap;
import java.util.List;
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

/** viewfs: a mount table (given as hadoop.* settings) leading into the MiniDFSCluster. */
class TestHdfsViewFs {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  private final StorageLocation root = StorageLocation.of("viewfs://archive/tables/t1");
  private StorageLocation target;
  private MetaStorage storage;
  private FileSystem client;

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    target = DFS.newRoot("viewfs-" + test.getTestMethod().orElseThrow().getName());
    Map<String, String> config = new HashMap<>(DFS.config());
    config.put("hadoop.fs.viewfs.mounttable.archive.link./tables", target.toString());
    storage = MetaStorages.open(root, config);
    client = DFS.newClient();
  }

  @AfterEach
  void tearDown() throws Exception {
    storage.close();
    ((DistributedFileSystem) client).getClient().closeAllFilesBeingWritten(true);
    client.close();
  }

  @Test
  void createsListsReadsAndDeletesThroughTheMountTable() throws Exception {
    storage.createExclusive(root.resolve(".hoodie/2.commit"), bytes("two"));
    storage.createExclusive(root.resolve(".hoodie/1.commit"), bytes("one"));

    assertThatThrownBy(() -> storage.createExclusive(root.resolve(".hoodie/1.commit"), bytes("x")))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(storage.list(root.resolve(".hoodie")).toList())
        .extracting(FileEntry::location)
        .containsExactly(root.resolve(".hoodie/1.commit"), root.resolve(".hoodie/2.commit"));
    assertThat(storage.read(root.resolve(".hoodie/1.commit"))).asString(UTF_8).isEqualTo("one");
    try (FSDataInputStream in = client.open(hadoopPath(target.resolve("t1/.hoodie/2.commit")))) {
      assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("two");
    }

    storage.deleteAll(List.of(root.resolve(".hoodie/1.commit")));

    assertThat(storage.list(root.resolve(".hoodie")).toList())
        .extracting(FileEntry::name)
        .containsExactly("2.commit");
  }

  @Test
  void appendsAndRecoversALeaseOnTheMountedHdfs() throws Exception {
    StorageLocation log = root.resolve(".hoodie/archived/.commits_.archive.1_1-0-1");
    FSDataOutputStream crashed =
        client.create(
            hadoopPath(target.resolve("t1/.hoodie/archived/.commits_.archive.1_1-0-1")), false);
    crashed.write(bytes("run-1;"));
    crashed.hsync();

    try (AppendableLog appendable = storage.openLog(log).orElseThrow()) {
      assertThat(appendable.length()).isEqualTo(6);
      appendable.append(bytes("run-2;"));
    }

    assertThat(storage.read(log)).asString(UTF_8).isEqualTo("run-1;run-2;");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}
