package io.timelinearchive.select;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class TestInstantSelectorProperties {
  private static final Set<Action> COMMIT_ACTIONS =
      EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT);
  private static final Set<Action> NEVER_ARCHIVED =
      EnumSet.of(Action.SAVEPOINT, Action.RESTORE, Action.INDEXING, Action.SCHEMA_COMMIT);
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  @Provide
  Arbitrary<Scenario> scenarios() {
    return Scenario.scenarios(120);
  }

  private static ArchivalPlan plan(Scenario s) {
    return InstantSelector.plan(s.timeline(), s.facts(), s.policy(), s.now());
  }

  @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
  void selectsWhatAPlainReadingOfHudisArchiverSelects(@ForAll("scenarios") Scenario s) {
    ArchivalPlan plan = plan(s);
    Statistics.label("archives").collect(!plan.isEmpty());
    Statistics.label("commit barrier").collect(plan.barrier().kind());
    assertThat(plan.instants())
        .isEqualTo(HudiArchiverOracle.select(s.timeline(), s.facts(), s.policy(), s.now()));
    int[] minMax =
        HudiArchiverOracle.minAndMax(
            HudiArchiverOracle.activeTimeline(s.timeline()), s.facts(), s.policy(), s.now());
    assertThat(new int[] {plan.minCommits(), plan.maxCommits()}).containsExactly(minMax);
    assertThat(plan.warnings().stream().anyMatch(w -> w.contains("is more aggressive")))
        .isEqualTo(minMax[0] != s.policy().minCommits());
  }

  @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
  void takesEveryStateFileOfEachChosenInstantAndNoOther(@ForAll("scenarios") Scenario s) {
    ArchivalPlan plan = plan(s);
    Map<InstantKey, List<TimelineInstant>> byKey = s.timeline().byKey();
    List<TimelineInstant> expected = new ArrayList<>();
    for (InstantKey key : plan.instants()) {
      expected.addAll(byKey.get(key));
    }
    assertThat(plan.files()).isEqualTo(expected);
    assertThat(plan.instants()).isSorted().doesNotHaveDuplicates();
    for (InstantKey key : plan.instants()) {
      assertThat(byKey.get(key))
          .as("a chosen instant is completed")
          .anyMatch(TimelineInstant::isCompleted);
      assertThat(key.action()).isNotIn(NEVER_ARCHIVED);
    }
    int total = plan.countsByAction().values().stream().mapToInt(Integer::intValue).sum();
    assertThat(total).isEqualTo(plan.instants().size());
  }

  @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
  void commitsStayAPrefixBehindSavepointAndOldestPendingInstant(@ForAll("scenarios") Scenario s) {
    ArchivalPlan plan = plan(s);
    List<TimelineInstant> active = HudiArchiverOracle.activeTimeline(s.timeline());
    List<TimelineInstant> completed =
        HudiArchiverOracle.completedCommitsTimeline(active, s.facts());
    Set<InstantKey> chosen = new HashSet<>(plan.instants());
    List<TimelineInstant> chosenCommits =
        completed.stream().filter(c -> chosen.contains(c.key())).toList();

    Optional<String> firstSavepoint =
        active.stream()
            .filter(i -> i.isCompleted() && i.action() == Action.SAVEPOINT)
            .map(TimelineInstant::time)
            .findFirst();
    Set<String> savepointed = new HashSet<>();
    active.stream()
        .filter(i -> i.isCompleted() && i.action() == Action.SAVEPOINT)
        .forEach(i -> savepointed.add(i.time()));
    Optional<String> oldestPendingWrite =
        active.stream()
            .filter(i -> !i.isCompleted() && i.action().isWriteAction())
            .map(TimelineInstant::time)
            .findFirst();

    // replacecommits stay while nothing says the cleaner has passed them
    Optional<String> firstReplaceCommit =
        active.stream()
            .filter(i -> i.action() == Action.REPLACE_COMMIT)
            .map(TimelineInstant::time)
            .findFirst();
    Optional<String> latestClean =
        active.stream()
            .filter(i -> i.isCompleted() && i.action() == Action.CLEAN)
            .map(TimelineInstant::time)
            .reduce((a, b) -> b);
    boolean cleanPlanKnown =
        latestClean.isPresent()
            && s.facts().latestClean().map(c -> c.time().equals(latestClean.get())).orElse(false);

    for (TimelineInstant commit : chosenCommits) {
      if (!cleanPlanKnown) {
        firstReplaceCommit.ifPresent(r -> assertThat(commit.time()).isLessThan(r));
      }
      if (!s.policy().archiveBeyondSavepoint()) {
        firstSavepoint.ifPresent(sp -> assertThat(commit.time()).isLessThan(sp));
      } else {
        assertThat(savepointed).doesNotContain(commit.time());
      }
      oldestPendingWrite.ifPresent(p -> assertThat(commit.time()).isLessThan(p));
    }

    // no hole: the oldest completed commits (but savepointed ones, when archiving beyond them)
    List<TimelineInstant> eligible =
        s.policy().archiveBeyondSavepoint()
            ? completed.stream().filter(c -> !savepointed.contains(c.time())).toList()
            : completed;
    assertThat(chosenCommits).isEqualTo(eligible.subList(0, chosenCommits.size()));

    if (completed.size() <= s.policy().maxCommits()) {
      assertThat(chosenCommits).isEmpty();
    }
    if (!chosenCommits.isEmpty()) {
      int left = completed.size() - chosenCommits.size();
      assertThat(left).isGreaterThanOrEqualTo(s.policy().minCommits());
      assertThat(left).isGreaterThanOrEqualTo(plan.minCommits());
      assertThat(completed.size()).isGreaterThan(plan.maxCommits());
      boolean pendingCommit =
          active.stream().anyMatch(i -> !i.isCompleted() && COMMIT_ACTIONS.contains(i.action()));
      // (the cleaner counts commits of every type: on a copy-on-write table holding deltacommits
      // it may keep fewer of the commits archival counts)
      if (s.policy().cleanerPolicy() == CleanerPolicy.KEEP_LATEST_COMMITS
          && completed.size() > s.policy().cleanerCommitsRetained()
          && completed.size() == HudiArchiverOracle.completedCommits(active).size()
          && !pendingCommit) {
        // Hudi's widening: the cleaner's retained commits stay, and one more
        assertThat(left).isGreaterThanOrEqualTo(s.policy().cleanerCommitsRetained() + 1);
      }
    }
  }

  @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
  void cleansAndRollbacksAreTrimmedOldestFirstPerAction(@ForAll("scenarios") Scenario s) {
    ArchivalPlan plan = plan(s);
    List<TimelineInstant> active = HudiArchiverOracle.activeTimeline(s.timeline());
    Set<InstantKey> chosen = new HashSet<>(plan.instants());
    for (Action action : List.of(Action.CLEAN, Action.ROLLBACK)) {
      List<TimelineInstant> completed =
          active.stream().filter(i -> i.isCompleted() && i.action() == action).toList();
      List<TimelineInstant> taken =
          completed.stream().filter(i -> chosen.contains(i.key())).toList();
      assertThat(taken).isEqualTo(completed.subList(0, taken.size()));
      if (completed.size() <= plan.maxCommits()) {
        assertThat(taken).isEmpty();
      } else {
        assertThat(taken.size()).isLessThanOrEqualTo(completed.size() - plan.minCommits());
      }
    }
  }

  @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
  void respectsMetadataTableMinAgeAndCap(@ForAll("scenarios") Scenario s) {
    ArchivalPlan plan = plan(s);
    s.facts()
        .metadataTable()
        .ifPresent(
            mdt -> {
              if (mdt.latestCompactionTime().isEmpty()) {
                assertThat(plan.instants()).isEmpty();
              } else {
                assertThat(plan.instants())
                    .allMatch(k -> k.time().compareTo(mdt.latestCompactionTime().get()) < 0);
              }
            });
    s.policy()
        .retainMinAge()
        .ifPresent(
            age ->
                assertThat(plan.instants())
                    .allMatch(
                        k ->
                            !LocalDateTime.parse(k.time(), MILLIS)
                                .atZone(s.facts().timelineZone())
                                .toInstant()
                                .isAfter(s.now().minus(age))));
    if (s.policy().maxInstantsPerRun().isPresent()) {
      int cap = s.policy().maxInstantsPerRun().getAsInt();
      assertThat(plan.instants()).hasSizeLessThanOrEqualTo(cap);
      Map<String, String> uncappedConfig = new HashMap<>(s.config());
      uncappedConfig.remove(ArchivalPolicy.MAX_INSTANTS_PER_RUN);
      ArchivalPlan uncapped =
          InstantSelector.plan(
              s.timeline(), s.facts(), ArchivalPolicy.fromConfig(uncappedConfig), s.now());
      List<InstantKey> all = uncapped.instants();
      assertThat(plan.instants()).isEqualTo(all.subList(0, Math.min(cap, all.size())));
      if (all.size() > cap) {
        assertThat(plan.barriers()).anyMatch(b -> b.kind() == Kind.RUN_CAP);
      }
    }
  }

  @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
  void isDeterministicWhateverTheListingOrder(
      @ForAll("scenarios") Scenario s, @ForAll long shuffleSeed) {
    List<TimelineInstant> shuffled = new ArrayList<>(s.timeline().instants());
    Collections.shuffle(shuffled, new Random(shuffleSeed));
    ArchivalPlan plan = plan(s);
    assertThat(InstantSelector.plan(Timeline.of(shuffled), s.facts(), s.policy(), s.now()))
        .isEqualTo(plan);
    assertThat(plan(s)).isEqualTo(plan);
  }

  @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
  void barriersExplainWhereEachScopeStopped(@ForAll("scenarios") Scenario s) {
    ArchivalPlan plan = plan(s);
    Statistics.label("clean barrier").collect(plan.barrier(Scope.CLEAN).kind());
    Statistics.label("rollback barrier").collect(plan.barrier(Scope.ROLLBACK).kind());
    List<TimelineInstant> active = HudiArchiverOracle.activeTimeline(s.timeline());
    Set<InstantKey> chosen = new HashSet<>(plan.instants());
    long completedCommits = HudiArchiverOracle.completedCommitsTimeline(active, s.facts()).size();
    Barrier barrier = plan.barrier();
    assertThat(barrier.scope()).isEqualTo(Scope.COMMITS);
    if (completedCommits == 0) {
      assertThat(barrier.kind()).isEqualTo(Kind.NOTHING_TO_ARCHIVE);
    } else if (completedCommits <= plan.maxCommits()) {
      assertThat(barrier.kind()).isIn(Kind.BELOW_MAX);
      assertThat(barrier.message())
          .isEqualTo("below max commits (" + completedCommits + " <= " + plan.maxCommits() + ")");
    } else {
      assertThat(barrier.kind()).isNotIn(Kind.NOTHING_TO_ARCHIVE, Kind.BELOW_MAX);
    }
    switch (barrier.kind()) {
      case SAVEPOINT ->
          assertThat(active)
              .anyMatch(
                  i ->
                      i.isCompleted()
                          && i.action() == Action.SAVEPOINT
                          && Optional.of(i.time()).equals(barrier.instantTime()));
      case PENDING_INSTANT -> {
        TimelineInstant pending =
            active.stream()
                .filter(i -> !i.isCompleted() && i.action().isWriteAction())
                .findFirst()
                .orElseThrow();
        assertThat(barrier.instantTime()).contains(pending.time());
        assertThat(barrier.message())
            .startsWith("oldest pending " + pending.action() + " at " + pending.time());
      }
      case MIN_COMMITS ->
          assertThat(barrier.message())
              .isEqualTo("keeping min commits (" + plan.minCommits() + ")");
      case METADATA_TABLE -> assertThat(s.facts().metadataTable()).isPresent();
      case MIN_AGE -> assertThat(s.policy().retainMinAge()).isPresent();
      case RUN_CAP -> assertThat(s.policy().maxInstantsPerRun()).isPresent();
      default -> {}
    }
    // the instant named by MIN_COMMITS, MIN_AGE and RUN_CAP is the oldest one kept
    if (EnumSet.of(Kind.MIN_COMMITS, Kind.MIN_AGE, Kind.RUN_CAP).contains(barrier.kind())) {
      String firstKept = barrier.instantTime().orElseThrow();
      assertThat(HudiArchiverOracle.completedCommitsTimeline(active, s.facts()))
          .filteredOn(c -> !chosen.contains(c.key()))
          .filteredOn(c -> !s.policy().archiveBeyondSavepoint() || !isSavepointed(active, c))
          .first()
          .extracting(TimelineInstant::time)
          .isEqualTo(firstKept);
    }
  }

  private static boolean isSavepointed(List<TimelineInstant> active, TimelineInstant commit) {
    return active.stream()
        .anyMatch(
            i ->
                i.isCompleted()
                    && i.action() == Action.SAVEPOINT
                    && i.time().equals(commit.time()));
  }

  /**
   * Scale: 10^6 instants planned in one call must still hold the invariants. No clock is read: the
   * point is that a linear selector gets through this in the time the JVM takes to build the
   * timeline, where a quadratic one would not finish. Most instants have only their completed file
   * (as after a crash-free run that cleaned up), one in ten has all three, to keep the heap small.
   */
  @Property(tries = 1)
  void plansAMillionInstants(@ForAll long seed) {
    Random random = new Random(seed);
    List<TimelineInstant> files = new ArrayList<>(1_300_000);
    LocalDateTime time = LocalDateTime.of(2020, 1, 1, 0, 0);
    int instants = 1_000_000;
    String pendingAt = null;
    Map<InstantKey, Integer> fileCounts = new HashMap<>();
    for (int i = 0; i < instants; i++) {
      time = time.plusNanos(1_000_000L * (1 + random.nextInt(60_000)));
      String t = MILLIS.format(time);
      int roll = random.nextInt(100);
      // a copy-on-write table: its commits timeline is commit and replacecommit only
      Action action = roll < 70 ? Action.COMMIT : roll < 90 ? Action.CLEAN : Action.ROLLBACK;
      if (i == instants - 1000) {
        pendingAt = t;
        files.addAll(TimelineFixture.stateFiles(action, t, State.INFLIGHT));
      } else if (random.nextInt(10) == 0) {
        files.addAll(TimelineFixture.stateFiles(action, t, State.COMPLETED));
        fileCounts.put(new InstantKey(t, action), 3);
      } else {
        files.add(new TimelineInstant(t, action, State.COMPLETED));
      }
    }
    Timeline timeline = Timeline.of(files);
    int cap = 900_000;
    ArchivalPolicy policy =
        ArchivalPolicy.fromConfig(
            Map.of(
                ArchivalPolicy.MIN_COMMITS.key(), "200",
                ArchivalPolicy.MAX_COMMITS.key(), "300",
                ArchivalPolicy.MAX_INSTANTS_PER_RUN.key(), String.valueOf(cap)));
    ArchivalPlan plan =
        InstantSelector.plan(
            timeline,
            TableFacts.of(TableFacts.TableType.COPY_ON_WRITE),
            policy,
            java.time.Instant.parse("2030-01-01T00:00:00Z"));

    assertThat(plan.instants()).hasSize(cap).isSorted();
    assertThat(plan.barrier().kind()).isEqualTo(Kind.RUN_CAP);
    assertThat(plan.instants().get(cap - 1).time()).isLessThan(pendingAt);
    long expectedFiles =
        plan.instants().stream().mapToLong(k -> fileCounts.getOrDefault(k, 1)).sum();
    assertThat(plan.files()).hasSize((int) expectedFiles);
    assertThat(plan.files().get(0).key()).isEqualTo(plan.instants().get(0));
    assertThat(plan.files().get(plan.files().size() - 1).key())
        .isEqualTo(plan.instants().get(cap - 1));
  }
}
