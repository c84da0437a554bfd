package io.timelinearchive.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.MergeScenarios;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merging small archive files on S3Proxy, a store without append, where merging is on by default:
 * each run's new archive file is merged once a batch of them is there.
 */
class TestS3MergeS3Proxy {
  private static final Logger LOG = LoggerFactory.getLogger(TestS3MergeS3Proxy.class);

  /**
   * Runs of the history test; the note's 1,000-run figures come from {@code
   * -Dtimeline-archive.merge.history.runs=1000}.
   */
  private static final int HISTORY_RUNS =
      Integer.getInteger("timeline-archive.merge.history.runs", 25);

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
  void mergesABatchOfSmallFiles() throws Exception {
    run(MergeScenarios::mergesABatchOfSmallFiles);
  }

  @Test
  void readersSeeEachEntryOnceWhileAPlanIsThere() throws Exception {
    run(MergeScenarios::readersSeeEachEntryOnceWhileAPlanIsThere);
  }

  @Test
  void recoversFromAPlanLeftAtAnyStep() throws Exception {
    run(MergeScenarios::recoversFromAPlanLeftAtAnyStep);
  }

  /**
   * A table archived after every three commits, {@link #HISTORY_RUNS} times: with merging off one
   * archive file per run piles up; with the defaults (on, batch 10, 20 MiB) fewer than a batch are
   * left, and both archives hold the same instants.
   */
  @Test
  void aLongHistoryLeavesFewArchiveFiles() throws Exception {
    MergeScenarios.History[] results = new MergeScenarios.History[2];
    run(
        (storage, base) ->
            results[0] =
                MergeScenarios.history(
                    storage, base, HISTORY_RUNS, Map.of("hoodie.archive.merge.enable", "false")));
    run(
        (storage, base) ->
            results[1] = MergeScenarios.history(storage, base, HISTORY_RUNS, Map.of()));
    LOG.info(
        "{} runs on S3Proxy: merge off {} archive files, merge on (defaults) {} archive files"
            + " after {} merges; {} archived instant states each",
        HISTORY_RUNS,
        results[0].archiveFiles(),
        results[1].archiveFiles(),
        results[1].merges(),
        results[1].archivedInstants());
    assertThat(results[0].merges()).isZero();
    assertThat(results[0].archiveFiles()).isGreaterThanOrEqualTo(HISTORY_RUNS - 2);
    assertThat(results[1].archiveFiles()).isBetween(1, 10);
    assertThat(results[1].merges()).isGreaterThanOrEqualTo(HISTORY_RUNS / 10);
    assertThat(results[1].archivedInstants())
        .isEqualTo(results[0].archivedInstants())
        .isGreaterThanOrEqualTo(HISTORY_RUNS * 3 * 3 - 30);
  }
}
