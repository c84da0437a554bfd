package io.timelinearchive.select;

import static io.timelinearchive.select.TimelineFixture.timeline;
import static io.timelinearchive.timeline.Action.CLEAN;
import static io.timelinearchive.timeline.Action.COMMIT;
import static io.timelinearchive.timeline.Action.COMPACTION;
import static io.timelinearchive.timeline.Action.DELTA_COMMIT;
import static io.timelinearchive.timeline.Action.ROLLBACK;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.select.TableFacts.DataTable;
import io.timelinearchive.select.TableFacts.TableType;
import io.timelinearchive.timeline.Timeline;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A metadata table is archived by the rules Hudi 0.15 gives the metadata table's writer. */
class TestMetadataTableRules {
  private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

  @Test
  void derivesThePolicyAsHudiDoesForTheMetadataTablesWriter() {
    ArchivalPolicy data =
        ArchivalPolicy.fromConfig(
            Map.of(
                "hoodie.keep.min.commits", "5",
                "hoodie.keep.max.commits", "10",
                "hoodie.cleaner.commits.retained", "30",
                "hoodie.archive.beyond.savepoint", "true"));
    ArchivalPolicy metadata =
        MetadataTableRules.fromConfig(Map.of("hoodie.metadata.compact.max.delta.commits", "7"))
            .policy(data);
    assertThat(metadata.minCommits()).isEqualTo(6);
    assertThat(metadata.maxCommits()).isEqualTo(11);
    assertThat(metadata.cleanerPolicy()).isEqualTo(CleanerPolicy.KEEP_LATEST_COMMITS);
    assertThat(metadata.cleanerCommitsRetained()).isEqualTo(36);
    assertThat(metadata.compactionMaxDeltaCommits()).isEqualTo(7);
    assertThat(metadata.archiveBeyondSavepoint()).isFalse();

    // at least 20 commits retained; hours scaled up by a fifth
    assertThat(MetadataTableRules.fromConfig(Map.of()).policy(ArchivalPolicy.defaults()))
        .satisfies(
            p -> {
              assertThat(p.cleanerCommitsRetained()).isEqualTo(20);
              assertThat(p.compactionMaxDeltaCommits()).isEqualTo(10);
              assertThat(p.minCommits()).isEqualTo(21);
              assertThat(p.maxCommits()).isEqualTo(31);
            });
    ArchivalPolicy byHours =
        ArchivalPolicy.fromConfig(
            Map.of(
                "hoodie.cleaner.policy",
                "KEEP_LATEST_BY_HOURS",
                "hoodie.cleaner.hours.retained",
                "5"));
    assertThat(MetadataTableRules.fromConfig(Map.of()).policy(byHours).cleanerHoursRetained())
        .isEqualTo(6);
  }

  @Test
  void theDataTablesEarliestCommitOrPendingInstantBoundsEveryScope() {
    Timeline dataTable =
        timeline()
            .completed(CLEAN, "090")
            .completed(COMMIT, "105", "106")
            .inflight(COMMIT, "107")
            .build();
    DataTable facts = DataTable.fromTimeline(dataTable);
    assertThat(facts.earliestInstant()).contains("105");

    Timeline metadata =
        timeline()
            .completed(DELTA_COMMIT, "100", "101", "102", "103", "104", "105", "106", "107")
            .completed(CLEAN, "1001", "1011", "1021", "1031", "1041", "1051", "1061")
            .completed(ROLLBACK, "1002", "1012", "1022", "1032", "1042", "1052", "1062")
            .build();
    ArchivalPolicy policy =
        ArchivalPolicy.fromConfig(
            Map.of(
                "hoodie.keep.min.commits", "1",
                "hoodie.keep.max.commits", "2",
                "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS",
                "hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED"));
    ArchivalPlan plan =
        InstantSelector.plan(
            metadata, TableFacts.of(TableType.MERGE_ON_READ).withDataTable(facts), policy, NOW);
    assertThat(plan.instants())
        .allSatisfy(k -> assertThat(k.time()).isLessThan("105"))
        .isNotEmpty();
    for (Scope scope : Scope.values()) {
      assertThat(plan.barrier(scope).kind()).as(scope.name()).isEqualTo(Kind.DATA_TABLE);
      assertThat(plan.barrier(scope).instantTime()).contains("105");
    }
    assertThat(plan.barrier().message())
        .isEqualTo(
            "the data table's earliest commit or pending instant is at 105: its metadata table"
                + " keeps everything from there on");
  }

  @Test
  void aPendingInstantOfAnyActionCountsAndACompletedCompactionIsACommit() {
    assertThat(
            DataTable.fromTimeline(
                    timeline()
                        .completed(COMPACTION, "103")
                        .requested(CLEAN, "101")
                        .completed(COMMIT, "104")
                        .build())
                .earliestInstant())
        .contains("101");
    assertThat(
            DataTable.fromTimeline(timeline().completed(COMPACTION, "103").build())
                .earliestInstant())
        .contains("103");
    assertThat(DataTable.fromTimeline(timeline().completed(CLEAN, "100").build()).earliestInstant())
        .isEqualTo(Optional.empty());
  }
}
