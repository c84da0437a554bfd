package io.timelinearchive.select;

import static io.timelinearchive.select.TimelineFixture.timeline;
import static io.timelinearchive.timeline.Action.CLEAN;
import static io.timelinearchive.timeline.Action.CLUSTERING;
import static io.timelinearchive.timeline.Action.COMMIT;
import static io.timelinearchive.timeline.Action.COMPACTION;
import static io.timelinearchive.timeline.Action.DELTA_COMMIT;
import static io.timelinearchive.timeline.Action.REPLACE_COMMIT;
import static io.timelinearchive.timeline.Action.ROLLBACK;
import static io.timelinearchive.timeline.Action.SAVEPOINT;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.select.TableFacts.DataTable;
import io.timelinearchive.select.TableFacts.LatestClean;
import io.timelinearchive.select.TableFacts.MetadataTable;
import io.timelinearchive.select.TableFacts.TableType;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineFormat;
import io.timelinearchive.timeline.TimelineInstant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Hudi 1.0.1's rules ({@code TimelineArchiverV2}), case by case, each beside what Hudi 0.15's rules
 * make of the same timeline where they differ.
 */
class TestInstantSelectorHudi1 {
  private static final java.time.Instant NOW = java.time.Instant.parse("2026-01-10T00:00:00Z");
  private static final TableFacts COW = TableFacts.of(TableType.COPY_ON_WRITE);
  private static final TableFacts MOR = TableFacts.of(TableType.MERGE_ON_READ);

  /** min 2, max 4, a cleaner policy that never widens them. */
  private static ArchivalPolicy policy(String... keyValues) {
    Map<String, String> config = new HashMap<>();
    config.put("hoodie.keep.min.commits", "2");
    config.put("hoodie.keep.max.commits", "4");
    config.put("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS");
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put(keyValues[i], keyValues[i + 1]);
    }
    return ArchivalPolicy.fromConfig(config);
  }

  private static ArchivalPlan hudi1(Timeline timeline, TableFacts facts, ArchivalPolicy policy) {
    return InstantSelector.plan(timeline, facts, policy, NOW, TimelineFormat.HUDI_1_LSM);
  }

  private static ArchivalPlan hudi015(Timeline timeline, TableFacts facts, ArchivalPolicy policy) {
    return InstantSelector.plan(timeline, facts, policy, NOW, TimelineFormat.HUDI_0);
  }

  private static List<String> times(ArchivalPlan plan) {
    return plan.instants().stream().map(InstantKey::time).toList();
  }

  private static List<String> times(ArchivalPlan plan, Action action) {
    return plan.instants().stream()
        .filter(k -> k.action() == action)
        .map(InstantKey::time)
        .toList();
  }

  private static Map<InstantKey, String> completed(Action action, String... timeAndCompletion) {
    Map<InstantKey, String> m = new HashMap<>();
    for (int i = 0; i < timeAndCompletion.length; i += 2) {
      m.put(new InstantKey(timeAndCompletion[i], action.comparable()), timeAndCompletion[i + 1]);
    }
    return m;
  }

  @Test
  void cleansAreTakenWhenRequestedBeforeTheNewestCommitTakenWhateverTheirCount() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103", "104", "105", "106")
            .completed(CLEAN, "1015", "1045")
            .completed(ROLLBACK, "1025")
            .build();
    ArchivalPlan plan = hudi1(t, COW, policy());
    assertThat(times(plan, COMMIT)).containsExactly("101", "102", "103", "104");
    assertThat(times(plan, CLEAN)).containsExactly("1015");
    assertThat(times(plan, ROLLBACK)).containsExactly("1025");
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.NEWEST_COMMIT);
    assertThat(plan.barrier(Scope.CLEAN).instantTime()).contains("104");
    // Hudi 0.15 counted them: two cleans and a rollback are below max
    assertThat(times(hudi015(t, COW, policy()))).containsExactly("101", "102", "103", "104");
  }

  @Test
  void noCleanOrRollbackWithoutACommitTaken() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103")
            .completed(CLEAN, "1011", "1012", "1013", "1014", "1015", "1016")
            .completed(ROLLBACK, "1021", "1022", "1023", "1024", "1025", "1026")
            .build();
    ArchivalPlan plan = hudi1(t, COW, policy());
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.barrier().kind()).isEqualTo(Kind.BELOW_MAX);
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.NEWEST_COMMIT);
    assertThat(plan.barrier(Scope.CLEAN).message())
        .startsWith("no commit archived, so no clean instants");
    assertThat(plan.barrier(Scope.ROLLBACK).kind()).isEqualTo(Kind.NEWEST_COMMIT);
    assertThat(times(hudi015(t, COW, policy()))).hasSize(8);
  }

  @Test
  void everyStateFileOfATakenInstantGoes() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103", "104", "105", "106")
            .completed(CLEAN, "1015")
            .build();
    ArchivalPlan plan = hudi1(t, COW, policy());
    assertThat(plan.files())
        .contains(
            new TimelineInstant("101", COMMIT, State.REQUESTED),
            new TimelineInstant("101", COMMIT, State.INFLIGHT),
            new TimelineInstant("101", COMMIT, State.COMPLETED),
            new TimelineInstant("1015", CLEAN, State.REQUESTED),
            new TimelineInstant("1015", CLEAN, State.INFLIGHT),
            new TimelineInstant("1015", CLEAN, State.COMPLETED));
  }

  @Test
  void theMetadataTableBoundsByCompletionTime() {
    Timeline t = timeline().completed(COMMIT, "101", "102", "103", "104", "105", "106").build();
    // 103 completed after the metadata table's compaction at 1045 was requested
    TableFacts facts =
        COW.withMetadataTable(MetadataTable.compactedAt("1045"))
            .withCompletionTimes(
                completed(COMMIT, "101", "1011", "102", "1021", "103", "1099", "104", "1041"));
    ArchivalPlan plan = hudi1(t, facts, policy());
    assertThat(times(plan)).containsExactly("101", "102");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.METADATA_TABLE);
    assertThat(plan.barrier().instantTime()).contains("1045");
    // Hudi 0.15 compared requested times
    assertThat(times(hudi015(t, facts, policy()))).containsExactly("101", "102", "103", "104");
  }

  @Test
  void nothingWhileTheMetadataTableHasNoCompaction() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103", "104", "105", "106")
            .completed(CLEAN, "1015")
            .build();
    ArchivalPlan plan = hudi1(t, COW.withMetadataTable(MetadataTable.notCompactedYet()), policy());
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.barrier().kind()).isEqualTo(Kind.METADATA_TABLE);
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.NEWEST_COMMIT);
  }

  @Test
  void mergeOnReadCompactionCountsDeltaCommitsByCompletionTime() {
    Timeline t =
        timeline()
            .completed(DELTA_COMMIT, "101", "102", "1025", "104", "105", "106", "107")
            .completed(COMPACTION, "103")
            .build();
    // 1025 was requested before the compaction at 103 but completed after it
    TableFacts facts = MOR.withCompletionTimes(completed(DELTA_COMMIT, "1025", "1035"));
    ArchivalPolicy policy = policy("hoodie.compact.inline.max.delta.commits", "5");
    ArchivalPlan plan = hudi1(t, facts, policy);
    assertThat(times(plan)).containsExactly("101", "102");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.COMPACTION_RETENTION);
    assertThat(plan.barrier().instantTime()).contains("1025");
    assertThat(times(hudi015(t, facts, policy))).containsExactly("101", "102", "1025");
  }

  @Test
  void aPendingClusteringIsAPendingWrite() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103", "104", "105", "106")
            .requested(CLUSTERING, "1035")
            .build();
    ArchivalPlan plan = hudi1(t, COW, policy());
    assertThat(times(plan)).containsExactly("101", "102");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.PENDING_INSTANT);
    assertThat(plan.barrier().instantTime()).contains("1035");
    assertThat(plan.barrier().message()).startsWith("oldest pending clustering at 1035");
  }

  @Test
  void aCompletedClusteringIsAReplacecommitTakenWithItsClusteringFiles() {
    List<TimelineInstant> files =
        List.of(
            new TimelineInstant("103", CLUSTERING, State.REQUESTED),
            new TimelineInstant("103", CLUSTERING, State.INFLIGHT),
            new TimelineInstant("103", REPLACE_COMMIT, State.COMPLETED));
    Timeline t =
        Timeline.of(
            concat(timeline().completed(COMMIT, "101", "102", "104", "105", "106").build(), files));
    ArchivalPlan plan = hudi1(t, COW, policy());
    assertThat(times(plan)).containsExactly("101", "102");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.CLUSTERING_RETENTION);
    // with a clean that passed it, it goes, all three files
    Timeline cleaned =
        Timeline.of(
            concat(
                timeline()
                    .completed(COMMIT, "101", "102", "104", "105", "106", "107")
                    .completed(CLEAN, "1065")
                    .build(),
                files));
    ArchivalPlan after =
        hudi1(cleaned, COW.withLatestClean(new LatestClean("1065", Optional.of("105"))), policy());
    assertThat(times(after)).containsExactly("101", "102", "103", "104", "105");
    assertThat(after.files()).containsAll(files);
  }

  @Test
  void theLatestCleansSavepointsKeepReplacecommitsWhenArchivingBeyondSavepoints() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103", "105", "106", "107", "108")
            .completed(REPLACE_COMMIT, "104")
            .completed(SAVEPOINT, "102")
            .completed(CLEAN, "1075")
            .build();
    ArchivalPolicy beyond =
        policy(
            "hoodie.archive.beyond.savepoint",
            "true",
            "hoodie.cleaner.policy",
            "KEEP_LATEST_COMMITS",
            "hoodie.cleaner.commits.retained",
            "10");
    TableFacts facts =
        COW.withLatestClean(new LatestClean("1075", Optional.of("106"), List.of("102")));
    ArchivalPlan plan = hudi1(t, facts, beyond);
    assertThat(times(plan, COMMIT)).containsExactly("101", "103");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.CLUSTERING_RETENTION);
    assertThat(plan.barrier().message()).contains("earliest savepoint 102");
    // without savepoints in the plan, the clean passed the replacecommit
    ArchivalPlan without =
        hudi1(t, COW.withLatestClean(new LatestClean("1075", Optional.of("106"))), beyond);
    assertThat(times(without, COMMIT)).containsExactly("101", "103", "105", "106", "107");
    assertThat(times(without, REPLACE_COMMIT)).containsExactly("104");
    // nor with a cleaner keeping file versions
    ArchivalPlan versions =
        hudi1(
            t,
            facts,
            policy(
                "hoodie.archive.beyond.savepoint",
                "true",
                "hoodie.cleaner.policy",
                "KEEP_LATEST_FILE_VERSIONS"));
    assertThat(times(versions, REPLACE_COMMIT)).containsExactly("104");
  }

  @Test
  void aMetadataTableKeepsEverythingFromItsDataTablesEarliestInstant() {
    Timeline t =
        timeline().completed(DELTA_COMMIT, "101", "102", "103", "104", "105", "106").build();
    ArchivalPlan plan =
        hudi1(
            t,
            MOR.withDataTable(new DataTable(Optional.of("103"))),
            policy("hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED"));
    assertThat(times(plan)).containsExactly("101", "102");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.DATA_TABLE);
  }

  @Test
  void ourMinimumAgeBoundsTheCommitsAndWithThemTheCleans() {
    Timeline t =
        timeline()
            .completed(COMMIT, "20260101000000000", "20260102000000000", "20260104000000000")
            .completed(COMMIT, "20260109000000000", "20260109100000000", "20260109200000000")
            .completed(CLEAN, "20260101100000000", "20260103100000000")
            .build();
    ArchivalPlan plan = hudi1(t, COW, policy("archive.retain.min-age", "7d"));
    assertThat(times(plan))
        .containsExactly("20260101000000000", "20260101100000000", "20260102000000000");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.MIN_AGE);
  }

  @Test
  void ourPerRunCapKeepsTheOldestOfAll() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103", "104", "105", "106")
            .completed(CLEAN, "100", "1015")
            .build();
    ArchivalPlan plan = hudi1(t, COW, policy("archive.max-instants-per-run", "3"));
    assertThat(times(plan)).containsExactly("100", "101", "1015");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.RUN_CAP);
  }

  @Test
  void hudi0TimelinesDoNotKnowClustering() {
    assertThat(InstantFileName.parse("101.clustering.requested"))
        .isInstanceOf(InstantFileName.Result.Malformed.class);
    assertThat(InstantFileName.parse("101.clustering.inflight"))
        .isInstanceOf(InstantFileName.Result.Malformed.class);
    assertThat(Action.fromName("clustering")).isEmpty();
    assertThat(Action.fromHudi1Name("clustering")).contains(CLUSTERING);
    assertThat(CLUSTERING.comparable()).isEqualTo(REPLACE_COMMIT);
    assertThat(CLUSTERING.isWriteAction()).isTrue();
    assertThat(new TimelineInstant("101", CLUSTERING, State.REQUESTED).key())
        .isEqualTo(new InstantKey("101", REPLACE_COMMIT));
  }

  @Test
  void theFourArgumentPlanIsHudi015s() {
    Timeline t =
        timeline()
            .completed(COMMIT, "101", "102", "103")
            .completed(CLEAN, "1011", "1012", "1013", "1014", "1015", "1016")
            .build();
    assertThat(InstantSelector.plan(t, COW, policy(), NOW)).isEqualTo(hudi015(t, COW, policy()));
  }

  private static List<TimelineInstant> concat(Timeline t, List<TimelineInstant> more) {
    List<TimelineInstant> all = new java.util.ArrayList<>(t.instants());
    all.addAll(more);
    return all;
  }
}
