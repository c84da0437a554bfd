package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Setting;
import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.ArchivalPolicy.CompactionTrigger;
import java.util.List;
import java.util.Map;

/**
 * How Hudi 0.15 archives a metadata table ({@code <base>/.hoodie/metadata}): not by the data
 * table's settings but by those Hudi derives from them for the metadata table's own writer ({@code
 * HoodieMetadataWriteUtils.createMetadataWriteConfig}), and never past the data table's earliest
 * commit or pending instant ({@link TableFacts.DataTable}).
 *
 * @param compactionMaxDeltaCommits {@link #COMPACTION_MAX_DELTA_COMMITS}
 */
public record MetadataTableRules(int compactionMaxDeltaCommits) {
  /** The metadata table compacts after this many delta commits; archival keeps them until then. */
  public static final Setting<Integer> COMPACTION_MAX_DELTA_COMMITS =
      Setting.integer("hoodie.metadata.compact.max.delta.commits")
          .defaultValue(10)
          .atLeast(1)
          .doc("metadata tables: the delta commits their next compaction counts stay active")
          .build();

  /** Hudi's {@code DEFAULT_METADATA_CLEANER_COMMITS_RETAINED}. */
  private static final int LEAST_CLEANER_COMMITS_RETAINED = 20;

  public static final List<Setting<?>> SETTINGS = List.of(COMPACTION_MAX_DELTA_COMMITS);

  public MetadataTableRules {
    COMPACTION_MAX_DELTA_COMMITS.checked(compactionMaxDeltaCommits);
  }

  public static MetadataTableRules fromConfig(Map<String, String> config) {
    return new MetadataTableRules(COMPACTION_MAX_DELTA_COMMITS.get(requireNonNull(config)));
  }

  /**
   * The policy of the metadata table of a data table archived by {@code dataTable}: one more commit
   * kept at each end; the data table's cleaner policy with 20% more retained (at least 20 commits);
   * compaction every {@link #compactionMaxDeltaCommits} delta commits by count; never beyond a
   * savepoint. Our own rules (minimum age, per-run cap) apply as given.
   */
  public ArchivalPolicy policy(ArchivalPolicy dataTable) {
    int commitsRetained =
        dataTable.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_COMMITS
            ? (int)
                Math.max(LEAST_CLEANER_COMMITS_RETAINED, dataTable.cleanerCommitsRetained() * 1.2)
            : dataTable.cleanerCommitsRetained();
    int hoursRetained =
        dataTable.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_BY_HOURS
            ? (int) Math.ceil(dataTable.cleanerHoursRetained() * 1.2)
            : dataTable.cleanerHoursRetained();
    return new ArchivalPolicy(
        dataTable.minCommits() + 1,
        dataTable.maxCommits() + 1,
        false,
        dataTable.cleanerPolicy(),
        commitsRetained,
        hoursRetained,
        compactionMaxDeltaCommits,
        CompactionTrigger.NUM_COMMITS,
        dataTable.retainMinAge(),
        dataTable.maxInstantsPerRun());
  }

  /** The policy a table takes: {@code dataTable}'s, or for a metadata table {@link #policy}. */
  public ArchivalPolicy policyOf(boolean metadataTable, ArchivalPolicy dataTable) {
    return metadataTable ? policy(dataTable) : dataTable;
  }

  /** The rules in words, for {@code plan}. */
  public String describe(ArchivalPolicy dataTable, TableFacts.DataTable dataTableFacts) {
    ArchivalPolicy p = policy(dataTable);
    return "metadata table: archived by the rules Hudi gives its writer: keep "
        + p.minCommits()
        + " to "
        + p.maxCommits()
        + " commits, cleaner "
        + p.cleanerPolicy()
        + (p.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_COMMITS
            ? " retaining " + p.cleanerCommitsRetained()
            : p.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_BY_HOURS
                ? " retaining " + p.cleanerHoursRetained() + "h"
                : "")
        + ", compaction after "
        + p.compactionMaxDeltaCommits()
        + " delta commits"
        + dataTableFacts
            .earliestInstant()
            .map(t -> "; nothing from the data table's earliest commit or pending instant, " + t)
            .orElse("");
  }
}
