package io.timelinearchive.hudi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

/** A table's timelines as Apache Hudi 0.15's own classes read them. */
final class HudiTimelines {
  private HudiTimelines() {}

  /** The completed instants of the active timeline, as {@code time.action}. */
  static Set<String> completedActive(HoodieTableMetaClient metaClient) {
    Set<String> ids = new TreeSet<>();
    new HoodieActiveTimeline(metaClient, false)
        .filterCompletedInstants()
        .getInstantsAsStream()
        .forEach(i -> ids.add(id(i)));
    return ids;
  }

  /** Completed commits, delta commits and replace commits of the active timeline. */
  static int activeCommits(HoodieTableMetaClient metaClient) {
    return new HoodieActiveTimeline(metaClient, false)
        .getCommitsTimeline()
        .filterCompletedInstants()
        .countInstants();
  }

  /** Every instant state file of the active timeline, pending ones included. */
  static int activeInstantFiles(HoodieTableMetaClient metaClient) {
    return (int) new HoodieActiveTimeline(metaClient, false).getInstantsAsStream().count();
  }

  /**
   * The completed instants of Hudi's active timeline and archived timeline together, after checking
   * that Hudi reads the details of every archived one: commit metadata for commits, the Avro bytes
   * of cleans and rollbacks.
   */
  static Set<String> completedActiveAndArchived(HoodieTableMetaClient metaClient)
      throws IOException {
    Set<String> ids = completedActive(metaClient);
    HoodieArchivedTimeline archived = new HoodieArchivedTimeline(metaClient);
    archived.loadCompletedInstantDetailsInMemory();
    for (HoodieInstant instant : archived.filterCompletedInstants().getInstants()) {
      byte[] details = archived.getInstantDetails(instant).orElse(null);
      assertThat(details).as("details of archived %s", instant).isNotNull().isNotEmpty();
      if (isCommit(instant.getAction())) {
        HoodieCommitMetadata metadata =
            HoodieCommitMetadata.fromBytes(details, HoodieCommitMetadata.class);
        assertThat(metadata.getPartitionToWriteStats())
            .as("write stats of archived %s", instant)
            .isNotEmpty();
      }
      ids.add(id(instant));
    }
    return ids;
  }

  private static boolean isCommit(String action) {
    return action.equals(HoodieTimeline.COMMIT_ACTION)
        || action.equals(HoodieTimeline.DELTA_COMMIT_ACTION);
  }

  private static String id(HoodieInstant instant) {
    return instant.getTimestamp() + "." + instant.getAction();
  }
}
