package io.timelinearchive.archive;

import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFormat;
import java.time.Clock;
import java.util.Map;

/**
 * Archives the tables of one timeline format that archive-core cannot know itself (Hudi 1.x's LSM
 * history lives in archive-lsm, with Parquet and Hadoop). Found through {@link
 * java.util.ServiceLoader}, as the storage backends are.
 */
public interface TimelineHistoryProvider {

  /** The format this provider archives. */
  TimelineFormat format();

  /**
   * The history of {@code context.table()}, ready for one run or plan.
   *
   * @throws IllegalArgumentException naming the key when a setting of this format is invalid
   */
  TimelineHistory open(Context context);

  /**
   * What a history needs to know of the run.
   *
   * @param storage the table's storage, counting requests
   * @param table the table, of {@link #format()}
   * @param policy the archival policy as configured
   * @param metadataTableRules how a metadata table's policy is derived
   * @param settings the archiver's own settings
   * @param config every setting given, for this format's own keys
   * @param clock what "now" is
   */
  record Context(
      MetaStorage storage,
      HoodieTable table,
      ArchivalPolicy policy,
      MetadataTableRules metadataTableRules,
      ArchiverSettings settings,
      Map<String, String> config,
      Clock clock) {}
}
