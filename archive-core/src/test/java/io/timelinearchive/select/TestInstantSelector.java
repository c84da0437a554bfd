package io.timelinearchive.select;

import static io.timelinearchive.select.TimelineFixture.timeline;
import static io.timelinearchive.timeline.Action.CLEAN;
import static io.timelinearchive.timeline.Action.COMMIT;
import static io.timelinearchive.timeline.Action.COMPACTION;
import static io.timelinearchive.timeline.Action.DELTA_COMMIT;
import static io.timelinearchive.timeline.Action.INDEXING;
import static io.timelinearchive.timeline.Action.LOG_COMPACTION;
import static io.timelinearchive.timeline.Action.REPLACE_COMMIT;
import static io.timelinearchive.timeline.Action.RESTORE;
import static io.timelinearchive.timeline.Action.ROLLBACK;
import static io.timelinearchive.timeline.Action.SAVEPOINT;
import static io.timelinearchive.timeline.Action.SCHEMA_COMMIT;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.select.TableFacts.LatestClean;
import io.timelinearchive.select.TableFacts.MetadataTable;
import io.timelinearchive.select.TableFacts.TableType;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Cases after Hudi 0.15's TestHoodieTimelineArchiver, worked out from the archiver's rules. */
class TestInstantSelector {
  private static final java.time.Instant NOW = java.time.Instant.parse("2026-01-10T00:00:00Z");
  private static final TableFacts COW = TableFacts.of(TableType.COPY_ON_WRITE);
  private static final TableFacts MOR = TableFacts.of(TableType.MERGE_ON_READ);

  /**
   * min 2, max 4, and a cleaner policy that never widens them, so each case shows one rule; the
   * widening has cases of its own.
   */
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

  private static List<String> times(ArchivalPlan plan) {
    return plan.instants().stream().map(InstantKey::time).toList();
  }

  /** Deltacommits are a merge-on-read table's; here without the compaction rule in the way. */
  private static ArchivalPolicy withoutCompactionRetention() {
    return policy("hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED");
  }

  private static ArchivalPlan plan(Timeline timeline, TableFacts facts, ArchivalPolicy policy) {
    return InstantSelector.plan(timeline, facts, policy, NOW);
  }

  @Test
  void emptyTimelineHasNothingToArchive() {
    ArchivalPlan plan = plan(timeline().build(), COW, policy());
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.barrier().kind()).isEqualTo(Kind.NOTHING_TO_ARCHIVE);
    assertThat(plan.barrier().message()).isEqualTo("nothing to archive: no completed commits");
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.NOTHING_TO_ARCHIVE);
    assertThat(plan.barrier(Scope.ROLLBACK).kind()).isEqualTo(Kind.NOTHING_TO_ARCHIVE);
  }

  @Test
  void nothingWhileCommitsAreAtMostMax() {
    Timeline t = timeline().completed(COMMIT, "101", "102", "103", "104").build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.barrier().kind()).isEqualTo(Kind.BELOW_MAX);
    assertThat(plan.barrier().message()).isEqualTo("below max commits (4 <= 4)");
  }

  @Test
  void aboveMaxTrimsDownToMin() {
    Timeline t = timeline().completed(COMMIT, "101", "102", "103", "104", "105", "106").build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(times(plan)).containsExactly("101", "102", "103", "104");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.MIN_COMMITS);
    assertThat(plan.barrier().message()).isEqualTo("keeping min commits (2)");
    assertThat(plan.barrier().instantTime()).contains("105");
    assertThat(plan.countsByAction()).containsExactly(Map.entry(COMMIT, 4));
    assertThat(plan.warnings()).isEmpty();
  }

  @Test
  void everyStateFileOfASelectedInstantIsTakenAndNoOther() {
    Timeline t =
        timeline()
            .completed(COMPACTION, "101")
            .completed(LOG_COMPACTION, "102")
            .completed(REPLACE_COMMIT, "103")
            .completed(DELTA_COMMIT, "104", "105", "106")
            .completed(CLEAN, "1065")
            .build();
    // the cleaner has passed the replacecommit, so it may go
    TableFacts cleaned = MOR.withLatestClean(new LatestClean("1065", Optional.of("104")));
    ArchivalPlan plan = plan(t, cleaned, withoutCompactionRetention());
    assertThat(plan.files())
        .containsExactly(
            new TimelineInstant("101", COMPACTION, State.REQUESTED),
            new TimelineInstant("101", COMPACTION, State.INFLIGHT),
            new TimelineInstant("101", COMMIT, State.COMPLETED),
            new TimelineInstant("102", LOG_COMPACTION, State.REQUESTED),
            new TimelineInstant("102", LOG_COMPACTION, State.INFLIGHT),
            new TimelineInstant("102", DELTA_COMMIT, State.COMPLETED),
            new TimelineInstant("103", REPLACE_COMMIT, State.REQUESTED),
            new TimelineInstant("103", REPLACE_COMMIT, State.INFLIGHT),
            new TimelineInstant("103", REPLACE_COMMIT, State.COMPLETED),
            new TimelineInstant("104", DELTA_COMMIT, State.REQUESTED),
            new TimelineInstant("104", DELTA_COMMIT, State.INFLIGHT),
            new TimelineInstant("104", DELTA_COMMIT, State.COMPLETED));
    assertThat(plan.countsByAction())
        .containsExactly(
            Map.entry(COMMIT, 1), Map.entry(DELTA_COMMIT, 2), Map.entry(REPLACE_COMMIT, 1));
  }

  @Test
  void savepointStopsCommits() {
    // testArchiveCommitSavepointNoHole: nothing at or after the first savepoint
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101", "102", "103", "104", "105")
            .completed(SAVEPOINT, "101")
            .build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(times(plan)).containsExactly("100");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.SAVEPOINT);
    assertThat(plan.barrier().message()).isEqualTo("first savepoint at 101");
    assertThat(plan.barrier().instantTime()).contains("101");
  }

  @Test
  void pendingSavepointDoesNotStopCommits() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101", "102", "103", "104", "105")
            .inflight(SAVEPOINT, "101")
            .build();
    assertThat(times(plan(t, COW, policy()))).containsExactly("100", "101", "102", "103");
  }

  @Test
  void archiveBeyondSavepointSkipsOnlySavepointedCommits() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101", "102", "103", "104", "105", "106", "107")
            .completed(SAVEPOINT, "101", "104")
            .build();
    ArchivalPolicy policy =
        policy(
            "hoodie.archive.beyond.savepoint", "true",
            "hoodie.keep.min.commits", "4",
            "hoodie.keep.max.commits", "6");
    ArchivalPlan plan = plan(t, COW, policy);
    assertThat(times(plan)).containsExactly("100", "102", "103", "105");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.MIN_COMMITS);
    assertThat(plan.instants()).noneMatch(k -> k.action() == SAVEPOINT);
  }

  @Test
  void archiveBeyondSavepointStopsWhenOnlySavepointedCommitsRemain() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101", "102")
            .completed(SAVEPOINT, "100", "101")
            .build();
    ArchivalPolicy policy =
        policy(
            "hoodie.archive.beyond.savepoint", "true",
            "hoodie.keep.min.commits", "1",
            "hoodie.keep.max.commits", "2");
    ArchivalPlan plan = plan(t, COW, policy);
    assertThat(times(plan)).containsExactly("102");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.SAVEPOINT);
    assertThat(plan.barrier().instantTime()).contains("100");
  }

  @Test
  void pendingCompactionKeepsTheCommitBeforeItToo() {
    // testArchiveCommitCompactionNoHole under 0.15's "oldest commit to retain"
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "102", "103", "104", "105", "106")
            .requested(COMPACTION, "101")
            .build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.barrier().kind()).isEqualTo(Kind.PENDING_INSTANT);
    assertThat(plan.barrier().instantTime()).contains("101");
    assertThat(plan.barrier().message())
        .isEqualTo(
            "oldest pending compaction at 101 (the last completed commit before it, 100, stays"
                + " too)");
  }

  @Test
  void pendingCompactionBeforeEveryCommitStopsAtItself() {
    Timeline t =
        timeline()
            .inflight(COMPACTION, "099")
            .completed(COMMIT, "100", "102", "103", "104", "105", "106")
            .build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.barrier().message()).isEqualTo("oldest pending compaction at 099");
  }

  @Test
  void inflightCommitStopsCommits() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101", "102", "103", "105", "106", "107")
            .inflight(COMMIT, "104")
            .build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(times(plan)).containsExactly("100", "101", "102");
    assertThat(plan.barrier().message())
        .isEqualTo(
            "oldest pending commit at 104 (the last completed commit before it, 103, stays too)");
  }

  @Test
  void pendingReplacecommitAndLogCompactionStopCommits() {
    Timeline t =
        timeline()
            .completed(DELTA_COMMIT, "100", "101", "102", "104", "105", "106", "107", "108")
            .requested(REPLACE_COMMIT, "103")
            .requested(LOG_COMPACTION, "102500")
            .build();
    ArchivalPlan plan = plan(t, MOR, withoutCompactionRetention());
    // "102500" sorts before "103" and after "102" as a string, as Hudi compares times
    assertThat(times(plan)).containsExactly("100", "101");
    assertThat(plan.barrier().message()).startsWith("oldest pending logcompaction at 102500");

    Timeline onlyReplace =
        timeline()
            .completed(DELTA_COMMIT, "100", "101", "102", "104", "105", "106", "107", "108")
            .inflight(REPLACE_COMMIT, "103")
            .build();
    ArchivalPlan replacePlan = plan(onlyReplace, MOR, withoutCompactionRetention());
    assertThat(times(replacePlan)).containsExactly("100", "101");
    assertThat(replacePlan.barrier().message()).startsWith("oldest pending replacecommit at 103");
  }

  @Test
  void pendingCleanRollbackOrRestoreDoNotStopCommits() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "102", "103", "104", "105", "106")
            .requested(CLEAN, "101")
            .inflight(ROLLBACK, "1015")
            .inflight(RESTORE, "1016")
            .requested(INDEXING, "1017")
            .build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(times(plan)).containsExactly("100", "102", "103", "104");
  }

  @Test
  void replacecommitStaysUntilTheCleanerHasPassedIt() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101")
            .completed(REPLACE_COMMIT, "102")
            .completed(COMMIT, "103")
            .completed(REPLACE_COMMIT, "104")
            .completed(COMMIT, "105", "106", "107", "108")
            .build();
    ArchivalPlan noClean = plan(t, COW, policy());
    assertThat(times(noClean)).containsExactly("100", "101");
    assertThat(noClean.barrier().kind()).isEqualTo(Kind.CLUSTERING_RETENTION);
    assertThat(noClean.barrier().message())
        .isEqualTo("replacecommit at 102 stays until a clean has run");

    Timeline cleaned = timeline().completed(CLEAN, "1075").build();
    Timeline withClean =
        Timeline.of(
            java.util.stream.Stream.concat(t.instants().stream(), cleaned.instants().stream())
                .toList());
    ArchivalPlan retainedFrom103 =
        plan(withClean, COW.withLatestClean(new LatestClean("1075", Optional.of("103"))), policy());
    assertThat(times(retainedFrom103)).containsExactly("100", "101", "102", "103");
    assertThat(retainedFrom103.barrier().message())
        .isEqualTo(
            "replacecommit at 104 stays until the cleaner passes it (the clean at 1075 retains"
                + " from 103)");

    // a plan without a retained instant (KEEP_LATEST_FILE_VERSIONS) retains from the clean itself
    ArchivalPlan byVersions =
        plan(withClean, COW.withLatestClean(new LatestClean("1075", Optional.empty())), policy());
    assertThat(times(byVersions)).containsExactly("100", "101", "102", "103", "104", "105", "106");
    assertThat(byVersions.barrier().kind()).isEqualTo(Kind.MIN_COMMITS);

    // unknown or stale plan: keep every replacecommit from the first, and say so
    for (TableFacts unknown :
        List.of(COW, COW.withLatestClean(new LatestClean("0999", Optional.of("105"))))) {
      ArchivalPlan plan = plan(withClean, unknown, policy());
      assertThat(times(plan)).containsExactly("100", "101");
      assertThat(plan.barrier().message())
          .isEqualTo(
              "replacecommit at 102 stays: the plan of the latest clean, 1075, was not given");
      assertThat(plan.warnings())
          .containsExactly(
              "the plan of the latest clean, 1075, was not given: every replacecommit from the first"
                  + " one is kept");
    }
  }

  @Test
  void cleansAndRollbacksAreTrimmedPerActionFromMaxToMin() {
    // testArchiveRollbacksAndCleanTestTable: each action on its own, whatever the commits do
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101")
            .completed(CLEAN, "102", "103", "104", "105", "106")
            .completed(ROLLBACK, "107", "108", "109", "110")
            .requested(CLEAN, "111")
            .build();
    ArchivalPlan plan = plan(t, COW, policy());
    assertThat(times(plan)).containsExactly("102", "103", "104");
    assertThat(plan.countsByAction()).containsExactly(Map.entry(CLEAN, 3));
    assertThat(plan.barrier().kind()).isEqualTo(Kind.BELOW_MAX);
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.MIN_COMMITS);
    assertThat(plan.barrier(Scope.CLEAN).message()).isEqualTo("keeping min clean instants (2)");
    assertThat(plan.barrier(Scope.CLEAN).instantTime()).contains("105");
    assertThat(plan.barrier(Scope.ROLLBACK).message())
        .isEqualTo("below max rollback instants (4 <= 4)");
  }

  @Test
  void cleansPastASavepointOrPendingCommitAreStillTrimmedAsInHudi015() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100")
            .completed(SAVEPOINT, "100")
            .inflight(COMMIT, "101")
            .completed(CLEAN, "102", "103", "104", "105", "106")
            .build();
    assertThat(times(plan(t, COW, policy()))).containsExactly("102", "103", "104");
  }

  @Test
  void savepointRestoreIndexingAndSchemaCommitsAreNeverArchived() {
    TimelineFixture fixture = timeline();
    for (int i = 100; i < 120; i++) {
      fixture.completed(SAVEPOINT, i + "1");
      fixture.completed(RESTORE, i + "2");
      fixture.completed(INDEXING, i + "3");
      fixture.completed(SCHEMA_COMMIT, i + "4");
    }
    ArchivalPlan plan = plan(fixture.build(), COW, policy());
    assertThat(plan.isEmpty()).isTrue();
  }

  @Test
  void mergeOnReadKeepsTheDeltaCommitsTheNextCompactionCounts() {
    // no compaction yet: keep the last (max.delta.commits) delta commits
    Timeline t =
        timeline()
            .completed(DELTA_COMMIT, "101", "102", "103", "104", "105", "106", "107", "108")
            .build();
    ArchivalPolicy policy = policy("hoodie.compact.inline.max.delta.commits", "3");
    ArchivalPlan plan = plan(t, MOR, policy);
    assertThat(times(plan)).containsExactly("101", "102", "103", "104", "105");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.COMPACTION_RETENTION);
    assertThat(plan.barrier().message())
        .isEqualTo(
            "merge-on-read compaction keeps the delta commits from 106"
                + " (hoodie.compact.inline.max.delta.commits=3)");

    // other trigger strategies keep nothing extra; a copy-on-write table's commits timeline has no
    // deltacommits at all (Hudi's HoodieTableMetaClient#getCommitsTimeline)
    assertThat(
            times(
                plan(
                    t,
                    MOR,
                    policy(
                        "hoodie.compact.inline.max.delta.commits", "3",
                        "hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED"))))
        .hasSize(6);
    assertThat(times(plan(t, COW, policy))).isEmpty();
    assertThat(
            times(
                plan(
                    t,
                    MOR,
                    policy(
                        "hoodie.compact.inline.max.delta.commits", "3",
                        "hoodie.compact.inline.trigger.strategy", "NUM_AND_TIME"))))
        .hasSize(5);
  }

  @Test
  void mergeOnReadKeepsTheLastCompactionWhileFewDeltaCommitsFollowIt() {
    Timeline t =
        timeline()
            .completed(DELTA_COMMIT, "101", "102", "103", "104", "105")
            .completed(COMPACTION, "106")
            .completed(DELTA_COMMIT, "107", "108")
            .inflight(DELTA_COMMIT, "109")
            .build();
    // three delta commits after the compaction (the inflight one counts) < 4: keep from 106
    ArchivalPlan plan = plan(t, MOR, policy("hoodie.compact.inline.max.delta.commits", "4"));
    assertThat(times(plan)).containsExactly("101", "102", "103", "104", "105");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.COMPACTION_RETENTION);
    assertThat(plan.barrier().instantTime()).contains("106");

    // with 2 the bound moves to the first of the last two delta commits, 108, which is also
    // the last completed commit before the pending 109; the pending rule is named first
    ArchivalPlan two =
        plan(
            t,
            MOR,
            policy(
                "hoodie.compact.inline.max.delta.commits", "2",
                "hoodie.keep.min.commits", "1"));
    assertThat(times(two)).containsExactly("101", "102", "103", "104", "105", "106", "107");
    assertThat(two.barrier().kind()).isEqualTo(Kind.PENDING_INSTANT);
  }

  @Test
  void metadataTableLimitsEverythingToBeforeItsLatestCompaction() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "101", "102", "103", "104", "105")
            .completed(CLEAN, "1001", "1011", "1021", "1031", "1041")
            .build();
    ArchivalPlan plan = plan(t, COW.withMetadataTable(MetadataTable.compactedAt("102")), policy());
    assertThat(times(plan)).containsExactly("100", "1001", "101", "1011");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.METADATA_TABLE);
    assertThat(plan.barrier().message()).isEqualTo("metadata table not compacted past 102");
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.METADATA_TABLE);

    ArchivalPlan none = plan(t, COW.withMetadataTable(MetadataTable.notCompactedYet()), policy());
    assertThat(none.isEmpty()).isTrue();
    assertThat(none.barrier().message()).isEqualTo("metadata table not compacted yet");
    assertThat(none.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.METADATA_TABLE);
  }

  @Test
  void metadataTableCompactionTimeComesFromItsTimeline() {
    Timeline metadataTimeline =
        timeline()
            .completed(DELTA_COMMIT, "100", "101")
            .completed(COMPACTION, "101001")
            .completed(DELTA_COMMIT, "102")
            .requested(COMPACTION, "102001")
            .build();
    assertThat(MetadataTable.fromTimeline(metadataTimeline))
        .isEqualTo(MetadataTable.compactedAt("101001"));
    assertThat(MetadataTable.fromTimeline(timeline().completed(DELTA_COMMIT, "100").build()))
        .isEqualTo(MetadataTable.notCompactedYet());
  }

  @Test
  void minAgeKeepsYoungInstants() {
    Timeline t =
        timeline()
            .completed(
                COMMIT,
                "20260101000000000",
                "20260102000000000",
                "20260103000000000",
                "20260104000000000",
                "20260105000000000",
                "20260106000000000",
                "20260107000000000",
                "20260108000000000")
            .build();
    ArchivalPlan plan = plan(t, COW, policy("archive.retain.min-age", "7d"));
    // now is 2026-01-10T00:00Z: 01-03 is exactly 7 days old, 01-04 younger
    assertThat(times(plan))
        .containsExactly("20260101000000000", "20260102000000000", "20260103000000000");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.MIN_AGE);
    assertThat(plan.barrier().message())
        .isEqualTo("retain min-age 7d (instants after 20260103000000000 stay)");
    assertThat(plan.barrier().instantTime()).contains("20260104000000000");

    // in a table whose times are written at UTC+02:00 the same instants are two hours older
    TableFacts plusTwo =
        new TableFacts(TableType.COPY_ON_WRITE, ZoneId.of("+02:00"), Optional.empty());
    assertThat(
            times(
                InstantSelector.plan(
                    t,
                    plusTwo,
                    policy("archive.retain.min-age", "170h"),
                    java.time.Instant.parse("2026-01-10T00:00:00Z"))))
        .containsExactly("20260101000000000", "20260102000000000", "20260103000000000");
  }

  @Test
  void minAgeTreatsLegacySecondTimesAsTheirLastMillisecond() {
    Timeline t =
        timeline()
            .completed(COMMIT, "20260101000000", "20260102000000", "20260103000000")
            .completed(COMMIT, "20260104000000", "20260105000000", "20260106000000")
            .build();
    ArchivalPlan plan = plan(t, COW, policy("archive.retain.min-age", "7d"));
    assertThat(times(plan)).containsExactly("20260101000000", "20260102000000");
  }

  @Test
  void capKeepsTheOldestSelectedInstants() {
    Timeline t =
        timeline()
            .completed(COMMIT, "100", "102", "104", "106", "108", "110", "112")
            .completed(CLEAN, "101", "103", "105", "107", "109", "111")
            .build();
    ArchivalPlan uncapped = plan(t, COW, policy());
    assertThat(times(uncapped))
        .containsExactly("100", "101", "102", "103", "104", "105", "106", "107", "108");
    ArchivalPlan plan = plan(t, COW, policy("archive.max-instants-per-run", "4"));
    assertThat(times(plan)).containsExactly("100", "101", "102", "103");
    assertThat(plan.barrier().kind()).isEqualTo(Kind.RUN_CAP);
    assertThat(plan.barrier().message()).isEqualTo("per-run cap 4");
    assertThat(plan.barrier().instantTime()).contains("104");
    assertThat(plan.barrier(Scope.CLEAN).kind()).isEqualTo(Kind.RUN_CAP);
  }

  @Test
  void minAndMaxAreWidenedToKeepWhatTheCleanerRetains() {
    TimelineFixture fixture = timeline();
    for (int i = 100; i < 110; i++) {
      fixture.completed(COMMIT, String.valueOf(i));
    }
    ArchivalPolicy policy =
        policy(
            "hoodie.cleaner.policy", "KEEP_LATEST_COMMITS", "hoodie.cleaner.commits.retained", "5");
    ArchivalPlan plan = plan(fixture.build(), COW, policy);
    // the cleaner retains from the 5th newest (105): 4 after it + 2 = 6 kept, max 6 + (4 - 2)
    assertThat(plan.minCommits()).isEqualTo(6);
    assertThat(plan.maxCommits()).isEqualTo(8);
    assertThat(times(plan)).containsExactly("100", "101", "102", "103");
    assertThat(plan.barrier().message()).isEqualTo("keeping min commits (6)");
    assertThat(plan.warnings())
        .singleElement()
        .asString()
        .contains("hoodie.keep.min.commits=2 is more aggressive than the cleaner")
        .contains("hoodie.cleaner.commits.retained=5")
        .contains("earliest commit to retain 105")
        .contains("hoodie.keep.min.commits=6 and hoodie.keep.max.commits=8");

    // Hudi's defaults (min 20, retained 10) need no widening
    ArchivalPlan defaults = plan(fixture.build(), COW, ArchivalPolicy.defaults());
    assertThat(defaults.minCommits()).isEqualTo(20);
    assertThat(defaults.warnings()).isEmpty();
  }

  @Test
  void wideningNeverRetainsPastTheOldestPendingCommit() {
    TimelineFixture fixture = timeline();
    for (int i = 100; i < 110; i++) {
      fixture.completed(COMMIT, String.valueOf(i));
    }
    fixture.inflight(DELTA_COMMIT, "1035");
    ArchivalPlan plan =
        plan(
            fixture.build(),
            COW,
            policy(
                "hoodie.cleaner.policy", "KEEP_LATEST_COMMITS",
                "hoodie.cleaner.commits.retained", "5"));
    // the 5th newest (105) is past the pending 1035, so the cleaner retains from 103: 6 after + 2
    assertThat(plan.minCommits()).isEqualTo(8);
    assertThat(plan.maxCommits()).isEqualTo(10);
    assertThat(plan.isEmpty()).isTrue();
  }

  @Test
  void wideningByHoursCountsFromTheLatestCommit() {
    Timeline t =
        timeline()
            .completed(
                COMMIT,
                "20260101000000000",
                "20260101060000000",
                "20260101120000000",
                "20260101180000000",
                "20260102000000000",
                "20260102060000000",
                "20260102120000000")
            .build();
    ArchivalPolicy policy =
        policy(
            "hoodie.cleaner.policy", "KEEP_LATEST_BY_HOURS", "hoodie.cleaner.hours.retained", "12");
    ArchivalPlan plan = plan(t, COW, policy);
    // keeps from 2026-01-02T00:00: 2 after it + 2
    assertThat(plan.minCommits()).isEqualTo(4);
    assertThat(plan.maxCommits()).isEqualTo(6);
    assertThat(times(plan))
        .containsExactly("20260101000000000", "20260101060000000", "20260101120000000");

    ArchivalPlan byVersions =
        plan(t, COW, policy("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"));
    assertThat(byVersions.minCommits()).isEqualTo(2);
    assertThat(byVersions.warnings()).isEmpty();
  }

  @Test
  void factsReadHoodieProperties() {
    TableFacts facts =
        TableFacts.fromProperties(
            Map.of("hoodie.table.type", "MERGE_ON_READ", "hoodie.table.timeline.timezone", "UTC"),
            ZoneId.of("Asia/Tokyo"),
            Optional.empty());
    assertThat(facts.tableType()).isEqualTo(TableType.MERGE_ON_READ);
    assertThat(facts.timelineZone()).isEqualTo(ZoneOffset.UTC);
    TableFacts local =
        TableFacts.fromProperties(Map.of(), ZoneId.of("Asia/Tokyo"), Optional.empty());
    assertThat(local.tableType()).isEqualTo(TableType.COPY_ON_WRITE);
    assertThat(local.timelineZone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
    assertThat(
            TableFacts.hasMetadataTable(
                Map.of("hoodie.table.metadata.partitions", "column_stats,files")))
        .isTrue();
    assertThat(TableFacts.hasMetadataTable(Map.of("hoodie.table.metadata.partitions", "")))
        .isFalse();
    assertThat(TableFacts.hasMetadataTable(Map.of())).isFalse();
  }

  @Test
  void factsRejectUnknownPropertyValues() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                TableFacts.fromProperties(
                    Map.of("hoodie.table.type", "MERGE_ON_WRITE"),
                    ZoneOffset.UTC,
                    Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hoodie.table.type='MERGE_ON_WRITE'");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                TableFacts.fromProperties(
                    Map.of("hoodie.table.timeline.timezone", "CET"),
                    ZoneOffset.UTC,
                    Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hoodie.table.timeline.timezone='CET'");
  }

  @Test
  void planIsAValue() {
    Timeline t = timeline().completed(COMMIT, "101", "102", "103", "104", "105", "106").build();
    assertThat(plan(t, COW, policy())).isEqualTo(plan(t, COW, policy()));
    assertThat(plan(t, COW, policy()).instants())
        .isSortedAccordingTo(InstantKey::compareTo)
        .allMatch(k -> k.action() == Action.COMMIT);
  }
}
