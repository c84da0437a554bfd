package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.InstantSelector;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFormat;
import java.io.IOException;
import java.time.Instant;

/**
 * Which instants one archival run of a Hudi 1.x table takes, by Hudi 1.0.1's rules ({@code
 * TimelineArchiverV2}) and our own: the table's facts gathered, then archive-core's pure selection
 * with {@link TimelineFormat#HUDI_1_LSM}'s rules.
 */
public final class Hudi1Selection {
  private Hudi1Selection() {}

  /**
   * @param storage the table's storage
   * @param table a Hudi 1.x table (see {@link HoodieTable#inspect}); a metadata table is archived
   *     by the rules Hudi gives its writer ({@code rules})
   * @param active its active timeline, listed once by the caller
   * @param policy the data table's archival settings
   * @param rules how a metadata table's settings derive from its data table's
   * @param now the time {@code archive.retain.min-age} counts back from
   * @return the plan; its {@link ArchivalPlan#files()} are every state file of the selected
   *     instants, whose real names and locations {@link ActiveTimeline#filesOf} gives
   * @throws IOException if the storage fails
   */
  public static ArchivalPlan plan(
      MetaStorage storage,
      HoodieTable table,
      Hudi1ActiveTimeline active,
      ArchivalPolicy policy,
      MetadataTableRules rules,
      Instant now)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(table, "table is null");
    requireNonNull(active, "active is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(rules, "rules is null");
    requireNonNull(now, "now is null");
    TableFacts facts = Hudi1TableFacts.load(storage, table, active);
    return InstantSelector.plan(
        active.asActiveTimeline().timeline(),
        facts,
        rules.policyOf(table.isMetadataTable(), policy),
        now,
        TimelineFormat.HUDI_1_LSM);
  }
}
