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
}
