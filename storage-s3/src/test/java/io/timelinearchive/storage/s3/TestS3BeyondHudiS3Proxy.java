package io.timelinearchive.storage.s3;

import io.timelinearchive.archive.BeyondHudiScenarios;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Retention by age, the per-run cap and unarchive on S3Proxy: a store without append, where each
 * run writes a new archive file and the restorer's exclusive creates are conditional PUTs.
 */
class TestS3BeyondHudiS3Proxy {
  private interface Scenario {
    void run(MetaStorage storage, StorageLocation base) throws Exception;
  }

  private static void run(Scenario scenario) throws Exception {
    S3Server server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    try (MetaStorage storage = server.open(bucket, Map.of())) {
      scenario.run(storage, StorageLocation.of("s3://" + bucket + "/warehouse/orders"));
    }
  }

  @Test
  void minAgeStopsAtTheCutoff() throws Exception {
    run(BeyondHudiScenarios::minAgeStopsAtTheCutoff);
  }

  @Test
  void runCapSpreadsTheWorkOverRuns() throws Exception {
    run(BeyondHudiScenarios::runCapSpreadsTheWorkOverRuns);
  }

  @Test
  void unarchiveRestoresByteExactly() throws Exception {
    run(BeyondHudiScenarios::unarchiveRestoresByteExactly);
  }

  @Test
  void unarchiveNeverOverwrites() throws Exception {
    run(BeyondHudiScenarios::unarchiveNeverOverwrites);
  }

  @Test
  void historyMaxAgePurgesOldArchiveFiles() throws Exception {
    run(BeyondHudiScenarios::historyMaxAgePurgesOldArchiveFiles);
  }
}
