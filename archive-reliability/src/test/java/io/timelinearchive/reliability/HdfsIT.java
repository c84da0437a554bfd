package io.timelinearchive.reliability;

import io.timelinearchive.storage.hdfs.MiniDfs;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crash trials and racing archivers on an HDFS in the test JVM, which the CLI's JVMs reach over
 * RPC.
 */
class HdfsIT extends AbstractStoreIT {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  @Override
  Store store() {
    return Store.hdfs(DFS);
  }

  /**
   * Found by these trials (kill while writing, then re-run): the re-run's recovery reads the
   * archive file the dead run left open before anything recovers that run's HDFS lease, and HDFS
   * lists an open file without its last, unfinished block; so the recovery misses the entries the
   * dead run had flushed there, archives those instant files again (after recovering the lease to
   * append), and the archive holds them twice. Nothing is lost; readers de-duplicate. To be fixed
   * in archive-core/storage-hdfs (read the journal's file at its recovered length); until then an
   * expected failure, so that every other violation still fails the build.
   */
  @Override
  boolean knownBug(String violation, String phase) {
    return phase.startsWith("write ") && violation.startsWith("archived twice: ");
  }
}
