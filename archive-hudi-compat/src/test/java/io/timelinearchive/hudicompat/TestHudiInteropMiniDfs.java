package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.hudicompat.HudiView.ScannedBlock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue tests 1 and 2 on HDFS (an in-process MiniDFSCluster on 127.0.0.1), where Hudi 0.15 and our
 * HDFS backend both append to the newest archive file instead of starting a new one per run.
 */
class TestHudiInteropMiniDfs {
  private static final Logger LOG = LoggerFactory.getLogger(TestHudiInteropMiniDfs.class);

  private static final Map<String, String> SETTINGS = HudiTable.archivalSettings();
  private static final String FIRST_FILE = ".commits_.archive.1_1-0-1";

  /** Client settings for a cluster of one DataNode, as Hadoop keys. */
  private static final Map<String, String> CLIENT =
      Map.of(
          "dfs.replication", "1",
          // with one DataNode there is none to swap into a broken pipeline
          "dfs.client.block.write.replace-datanode-on-failure.enable", "false",
          // closing a file waits this long for the DataNode's block report (default 400 ms)
          "dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "10");

  private static MiniDFSCluster cluster;
  private static String root;

  @BeforeAll
  static void startCluster() throws IOException {
    long start = System.nanoTime();
    Path baseDir =
        Files.createTempDirectory(
            Files.createDirectories(Path.of("target", "minidfs")).toAbsolutePath(), "cluster-");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toString());
    conf.setBoolean("dfs.permissions.enabled", false);
    CLIENT.forEach(conf::set);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
    cluster.waitActive();
    root = "hdfs://" + cluster.getNameNode().getNameNodeAddressHostPortString();
    LOG.info(
        "MiniDFSCluster at {} started in {} ms", root, (System.nanoTime() - start) / 1_000_000);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.shutdown(true);
    }
  }

  /** Hudi's Hadoop configuration for the cluster. */
  private static Configuration hadoopConf() {
    Configuration conf = new Configuration(cluster.getConfiguration(0));
    CLIENT.forEach(conf::set);
    return conf;
  }

  /** Our settings: Hudi's archival keys and the client settings, {@code hadoop.}-prefixed. */
  private static Map<String, String> ourConfig() {
    Map<String, String> config = new LinkedHashMap<>(SETTINGS);
    CLIENT.forEach((key, value) -> config.put("hadoop." + key, value));
    return config;
  }

  /** Ten commits with cleaning after each, and a failed write rolled back. */
  private static HudiTable writeTable(String uri) throws IOException {
    HudiTable table = HudiTable.create(uri, HoodieTableType.COPY_ON_WRITE, SETTINGS, hadoopConf());
    for (int i = 0; i < 10; i++) {
      table.commit();
      if (i == 2) {
        String failed = table.failedWrite();
        table.closeClient();
        table.rollback(failed);
      }
    }
    table.closeClient();
    return table;
  }

  @Test
  void hudiReadsTheArchiveWeAppendedTo() throws Exception {
    String uri = root + "/tables/ours-" + UUID.randomUUID();
    try (HudiTable hudi = writeTable(uri)) {
      Set<Id> before = new TreeSet<>(HudiView.active(hudi.metaClient()));
      Map<String, byte[]> originals = new TreeMap<>(Ours.instantFiles(uri, ourConfig()));

      ArchiveResult first = Ours.archive(uri, ourConfig());
      for (int i = 0; i < 3; i++) {
        hudi.commit();
      }
      hudi.closeClient();
      before.addAll(HudiView.active(hudi.metaClient()));
      originals.putAll(Ours.instantFiles(uri, ourConfig()));
      ArchiveResult second = Ours.archive(uri, ourConfig());

      assertThat(List.of(first, second))
          .allSatisfy(run -> assertThat(run.archived()).isNotEmpty())
          .extracting(run -> run.archiveFilesWritten().get(0))
          .extracting(ArchiveResult.WrittenFile::name, ArchiveResult.WrittenFile::appended)
          .containsExactly(tuple(FIRST_FILE, false), tuple(FIRST_FILE, true));
      TestHudiReadsOurArchive.assertHudiReadsOurArchive(
          hudi.metaClient(), before, originals, List.of(first, second));
      assertThat(HudiView.scan(hudi.metaClient()))
          .extracting(ScannedBlock::version)
          .containsOnly(1);
    }
  }

  @Test
  void weReadTheArchiveHudiAppendedTo() throws Exception {
    String uri = root + "/tables/hudi-" + UUID.randomUUID();
    try (HudiTable hudi = writeTable(uri)) {
      assertThat(hudi.archiveWithHudi()).isTrue();
      for (int run = 2; run <= 3; run++) {
        for (int i = 0; i < 3; i++) {
          hudi.commit();
        }
        assertThat(hudi.archiveWithHudi()).isTrue();
      }
      // three runs, one file: Hudi appends on HDFS
      TestWeReadHudisArchive.assertWeReadWhatHudiReads(
          hudi.metaClient(), uri, ourConfig(), List.of(1));
    }
  }
}
