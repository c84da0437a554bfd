package io.timelinearchive.reliability;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.azure.Azurite;
import io.timelinearchive.storage.gcs.FakeGcsServer;
import io.timelinearchive.storage.hdfs.MiniDfs;
import io.timelinearchive.storage.s3.S3ProxyServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server the CLI runs against, as a user points it at one: a table URI and {@code --conf}
 * settings. The servers run on 127.0.0.1 for the whole test JVM; each table gets a fresh root.
 */
record Store(String name, Map<String, String> config, RootMaker roots) {
  private static final AtomicInteger ROOTS = new AtomicInteger();

  interface RootMaker {
    StorageLocation newRoot(String name) throws IOException;
  }

  /** An in-process HDFS; the CLI's JVM connects to it with hdfs://127.0.0.1:port. */
  static Store hdfs(MiniDfs dfs) {
    Map<String, String> config = new TreeMap<>(dfs.config());
    // Closing a file waits for the DataNode to report the block, retrying with a doubling pause
    // from MiniDfs's 10 ms: 5 times (Hadoop's default) gave up on a very busy machine ("last block
    // does not have enough number of replicas"); 10 wait up to about 10 s.
    config.put("hadoop.dfs.client.block.write.locateFollowingBlock.retries", "10");
    return new Store("hdfs", Map.copyOf(config), dfs::newRoot);
  }

  /** Local disk below {@code folder}, through the {@code file} backend. */
  static Store local(java.nio.file.Path folder) {
    return new Store(
        "local",
        Map.of(),
        name -> {
          java.nio.file.Path root = folder.resolve(unique(name));
          java.nio.file.Files.createDirectories(root);
          return Tables.location(root);
        });
  }

  /** S3Proxy in this JVM, one bucket for every table. */
  static Store s3() {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    return new Store(
        "s3", server.config(), name -> StorageLocation.of("s3://" + bucket + "/" + unique(name)));
  }

  /** Azurite (node, a process of its own), one container per table. */
  static Store azure() {
    return azure(Azurite.get());
  }

  /** A given Azurite, one container per table. */
  static Store azure(Azurite azurite) {
    return new Store(
        "azure",
        azurite.config(),
        name ->
            Azurite.rootOf(azurite.newContainer().getBlobContainerName()).resolve(unique(name)));
  }

  /** fake-gcs-server (a Go process of its own), one bucket for every table. */
  static Store gcs() {
    FakeGcsServer server = FakeGcsServer.shared();
    String bucket = server.newBucket("reliability");
    return new Store(
        "gcs", server.config(), name -> StorageLocation.of("gs://" + bucket + "/" + unique(name)));
  }

  private static String unique(String name) {
    return name + "-" + ROOTS.incrementAndGet();
  }

  StorageLocation newRoot(String name) throws IOException {
    return roots.newRoot(name);
  }

  MetaStorage open(StorageLocation root) throws IOException {
    return MetaStorages.open(root, config);
  }

  /** The settings as {@code --conf key=value} arguments of the CLI. */
  List<String> conf() {
    List<String> args = new ArrayList<>();
    new TreeMap<>(config).forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    return args;
  }

  @Override
  public String toString() {
    return name;
  }
}
