package io.timelinearchive.storage.hdfs;

import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One in-process HDFS (a NameNode and a DataNode on 127.0.0.1, random ports) shared by every test
 * class of the JVM: registered with {@code @RegisterExtension}, started by the first class that
 * needs it and shut down when the whole test run ends.
 */
public final class MiniDfs implements BeforeAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(MiniDfs.class);
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(MiniDfs.class);

  public static final int LIST_PAGE_SIZE = 100;

  private Cluster cluster;

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(Cluster.class, key -> Cluster.start(), Cluster.class);
  }

  /** The root of a fresh, empty folder on the cluster, e.g. for one test. */
  public StorageLocation newRoot(String name) {
    return StorageLocation.of(cluster.uri() + "/" + name + "-" + UUID.randomUUID());
  }

  /** The settings our storage needs to talk to this cluster (one DataNode, so one replica). */
  public Map<String, String> config() {
    return Map.of(
        "hadoop.dfs.replication", "1",
        // With one DataNode there is none to swap into a broken pipeline.
        "hadoop.dfs.client.block.write.replace-datanode-on-failure.enable", "false",
        // Closing a file often asks the NameNode again, after this backoff, because the DataNode
        // has not yet reported the block: 400 ms by default, most of the time of a small write.
        "hadoop.dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "10",
        // On a busy machine the NameNode is slow, not gone: the CLI's fail-fast 3 s to connect and
        // 8 s per call would turn a slow answer into a failed run.
        "hadoop.connect-timeout", "30s",
        "hadoop.request-timeout", "120s");
  }

  /** Another HDFS client (own DFSClient, own lease holder name) in this JVM. */
  public FileSystem newClient() throws IOException {
    Configuration conf = new Configuration(cluster.cluster().getConfiguration(0));
    config().forEach((key, value) -> conf.set(key.substring("hadoop.".length()), value));
    return FileSystem.newInstance(java.net.URI.create(cluster.uri()), conf);
  }

  public MiniDFSCluster cluster() {
    return cluster.cluster();
  }

  private record Cluster(MiniDFSCluster cluster, Path baseDir, String uri)
      implements AutoCloseable {
    static Cluster start() {
      long start = System.nanoTime();
      try {
        Path baseDir = Files.createDirectories(Path.of("target", "minidfs")).toAbsolutePath();
        baseDir = Files.createTempDirectory(baseDir, "cluster-");
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toString());
        conf.setInt("dfs.replication", 1);
        // Lease recovery waits for the DataNode's next heartbeat; the default is 3 s.
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setBoolean("dfs.permissions.enabled", false);
        // Listings come in pages of this many entries (default 1000): paging is tested cheaply.
        conf.setInt("dfs.ls.limit", LIST_PAGE_SIZE);
        MiniDFSCluster cluster =
            new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
        cluster.waitActive();
        String uri = "hdfs://" + cluster.getNameNode().getNameNodeAddressHostPortString();
        LOG.info(
            "MiniDFSCluster at {} started in {} ms (base dir {}, test JVM heap max {} MiB)",
            uri,
            (System.nanoTime() - start) / 1_000_000,
            baseDir,
            Runtime.getRuntime().maxMemory() >> 20);
        return new Cluster(cluster, baseDir, uri);
      } catch (IOException e) {
        throw new IllegalStateException("cannot start MiniDFSCluster", e);
      }
    }

    @Override
    public void close() {
      long start = System.nanoTime();
      cluster.shutdown(true);
      LOG.info("MiniDFSCluster stopped in {} ms", (System.nanoTime() - start) / 1_000_000);
    }
  }
}
