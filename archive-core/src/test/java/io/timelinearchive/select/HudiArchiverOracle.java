package io.timelinearchive.select;

import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A second, deliberately naive reading of Hudi 0.15's {@code HoodieTimelineArchiver}, written the
 * way Hudi writes it (whole-timeline stream filters, {@code limit}, no early exits), plus our
 * extras in their plainest form. Quadratic in places; only for small generated timelines.
 */
final class HudiArchiverOracle {
  private static final Set<Action> COMMITS =
      EnumSet.of(Action.COMMIT, Action.DELTA_COMMIT, Action.REPLACE_COMMIT);
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private HudiArchiverOracle() {}

  /** Hudi's active timeline: the furthest state of each instant (the first of equals). */
  static List<TimelineInstant> activeTimeline(Timeline timeline) {
    List<TimelineInstant> active = new ArrayList<>();
    for (List<TimelineInstant> files : timeline.byKey().values()) {
      active.add(
          files.stream().reduce((x, y) -> x.state().compareTo(y.state()) >= 0 ? x : y).get());
    }
    return active;
  }

  static List<TimelineInstant> completedCommits(List<TimelineInstant> active) {
    return active.stream().filter(i -> i.isCompleted() && COMMITS.contains(i.action())).toList();
  }

  /**
   * HoodieTable.getCompletedCommitsTimeline: on a copy-on-write table commit and replacecommit only
   * (HoodieTableMetaClient.getCommitsTimeline), on merge-on-read deltacommit too.
   */
  static List<TimelineInstant> completedCommitsTimeline(
      List<TimelineInstant> active, TableFacts facts) {
    boolean mor = facts.tableType() == TableFacts.TableType.MERGE_ON_READ;
    return completedCommits(active).stream()
        .filter(i -> mor || i.action() != Action.DELTA_COMMIT)
        .toList();
  }

  /**
   * ArchivalUtils.getMinAndMaxInstantsToKeep: CleanerUtils.getEarliestCommitToRetain over the
   * active timeline's commits of every type, the latest commit and the count from the table's
   * completed commits timeline.
   */
  static int[] minAndMax(
      List<TimelineInstant> active,
      TableFacts facts,
      ArchivalPolicy policy,
      java.time.Instant now) {
    List<TimelineInstant> completed = completedCommits(active);
    List<TimelineInstant> counted = completedCommitsTimeline(active, facts);
    Optional<TimelineInstant> earliest = Optional.empty();
    if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_COMMITS
        && completed.size() > policy.cleanerCommitsRetained()) {
      Optional<TimelineInstant> pending =
          active.stream().filter(i -> COMMITS.contains(i.action()) && !i.isCompleted()).findFirst();
      int n = completed.size() - policy.cleanerCommitsRetained();
      Optional<TimelineInstant> nth =
          n < completed.size() ? Optional.of(completed.get(n)) : Optional.empty();
      if (pending.isPresent()) {
        earliest =
            nth.flatMap(
                i ->
                    compare(i, pending.get()) <= 0
                        ? Optional.of(i)
                        : completed.stream()
                            .filter(c -> c.time().compareTo(pending.get().time()) < 0)
                            .reduce((a, b) -> b));
      } else {
        earliest = nth;
      }
    } else if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_BY_HOURS
        && !completed.isEmpty()) {
      try {
        LocalDateTime latest =
            counted.isEmpty()
                ? LocalDateTime.ofInstant(now, facts.timelineZone())
                : LocalDateTime.parse(counted.get(counted.size() - 1).time(), MILLIS);
        String retainFrom =
            MILLIS.format(
                ZonedDateTime.of(latest, facts.timelineZone())
                    .minusHours(policy.cleanerHoursRetained()));
        earliest = completed.stream().filter(c -> c.time().compareTo(retainFrom) >= 0).findFirst();
      } catch (DateTimeParseException e) {
        earliest = Optional.empty();
      }
    }
    int min = policy.minCommits();
    int max = policy.maxCommits();
    if (earliest.isPresent()) {
      String time = earliest.get().time();
      int needed = (int) counted.stream().filter(c -> c.time().compareTo(time) > 0).count() + 2;
      if (min < needed) {
        max = needed + max - min;
        min = needed;
      }
    }
    return new int[] {min, max};
  }

  private static int compare(TimelineInstant a, TimelineInstant b) {
    int byKey = a.key().compareTo(b.key());
    return byKey != 0 ? byKey : a.state().compareTo(b.state());
  }

  static List<InstantKey> select(
      Timeline timeline, TableFacts facts, ArchivalPolicy policy, java.time.Instant now) {
    List<TimelineInstant> active = activeTimeline(timeline);
    int[] minMax = minAndMax(active, facts, policy, now);
    int min = minMax[0];
    int max = minMax[1];

    // getCleanInstantsToArchive
    Map<Action, List<TimelineInstant>> cleanAndRollback =
        active.stream()
            .filter(
                i ->
                    i.isCompleted()
                        && (i.action() == Action.CLEAN || i.action() == Action.ROLLBACK))
            .collect(Collectors.groupingBy(TimelineInstant::action));
    Stream<TimelineInstant> cleans =
        cleanAndRollback.values().stream()
            .flatMap(l -> l.size() > max ? l.subList(0, l.size() - min).stream() : Stream.empty());

    // getCommitInstantsToArchive
    List<TimelineInstant> completed = completedCommitsTimeline(active, facts);
    Stream<TimelineInstant> commits = Stream.empty();
    Optional<TimelineInstant> oldestPending =
        active.stream().filter(i -> i.action().isWriteAction() && !i.isCompleted()).findFirst();
    Optional<String> oldestCommitToRetain =
        oldestPending.map(
            p ->
                completed.stream()
                    .filter(c -> c.time().compareTo(p.time()) < 0)
                    .reduce((a, b) -> b)
                    .map(TimelineInstant::time)
                    .orElse(p.time()));
    List<String> savepoints =
        active.stream()
            .filter(i -> i.isCompleted() && i.action() == Action.SAVEPOINT)
            .map(TimelineInstant::time)
            .toList();
    if (!completed.isEmpty() && completed.size() > max) {
      Optional<String> forCompaction =
          facts.tableType() == TableFacts.TableType.MERGE_ON_READ
                  && (policy.compactionTrigger() == ArchivalPolicy.CompactionTrigger.NUM_COMMITS
                      || policy.compactionTrigger()
                          == ArchivalPolicy.CompactionTrigger.NUM_AND_TIME)
              ? oldestInstantToRetainForCompaction(active, policy.compactionMaxDeltaCommits())
              : Optional.empty();
      Optional<String> forClustering = oldestInstantToRetainForClustering(active, facts);
      commits =
          completed.stream()
              .filter(
                  s ->
                      policy.archiveBeyondSavepoint()
                          ? !savepoints.contains(s.time())
                          : savepoints.isEmpty() || savepoints.get(0).compareTo(s.time()) > 0)
              .filter(s -> oldestCommitToRetain.map(r -> r.compareTo(s.time()) > 0).orElse(true))
              .filter(s -> forCompaction.map(r -> s.time().compareTo(r) < 0).orElse(true))
              .filter(s -> forClustering.map(r -> s.time().compareTo(r) < 0).orElse(true))
              .limit(completed.size() - min);
    }

    // getInstantsToArchive
    Stream<TimelineInstant> instants = Stream.concat(cleans, commits);
    if (facts.metadataTable().isPresent()) {
      Optional<String> compaction = facts.metadataTable().get().latestCompactionTime();
      instants =
          compaction.isEmpty()
              ? Stream.empty()
              : instants.filter(i -> i.time().compareTo(compaction.get()) < 0);
    }

    // ours: minimum age, then the cap on the oldest
    if (policy.retainMinAge().isPresent()) {
      java.time.Instant youngest = now.minus(policy.retainMinAge().get());
      instants =
          instants.filter(
              i ->
                  !LocalDateTime.parse(i.time(), MILLIS)
                      .atZone(facts.timelineZone())
                      .toInstant()
                      .isAfter(youngest));
    }
    Stream<InstantKey> keys = instants.map(TimelineInstant::key).sorted(Comparator.naturalOrder());
    if (policy.maxInstantsPerRun().isPresent()) {
      keys = keys.limit(policy.maxInstantsPerRun().getAsInt());
    }
    return keys.toList();
  }

  /**
   * ClusteringUtils.getOldestInstantToRetainForClustering, with the clean plan's retained instant
   * taken from the facts; unknown, every replacecommit from the first is kept.
   */
  private static Optional<String> oldestInstantToRetainForClustering(
      List<TimelineInstant> active, TableFacts facts) {
    List<TimelineInstant> replaceCommits =
        active.stream().filter(i -> i.action() == Action.REPLACE_COMMIT).toList();
    if (replaceCommits.isEmpty()) {
      return Optional.empty();
    }
    Optional<TimelineInstant> clean =
        active.stream()
            .filter(i -> i.isCompleted() && i.action() == Action.CLEAN)
            .reduce((a, b) -> b);
    Optional<TimelineInstant> oldest;
    if (clean.isPresent()) {
      Optional<TableFacts.LatestClean> given =
          facts.latestClean().filter(c -> c.time().equals(clean.get().time()));
      if (given.isEmpty()) {
        oldest = Optional.of(replaceCommits.get(0));
      } else {
        String lowerBound =
            given
                .get()
                .earliestInstantToRetain()
                .filter(t -> !t.isEmpty())
                .orElse(clean.get().time());
        oldest =
            replaceCommits.stream().filter(r -> r.time().compareTo(lowerBound) >= 0).findFirst();
      }
    } else {
      oldest = Optional.of(replaceCommits.get(0));
    }
    Optional<TimelineInstant> inflight =
        replaceCommits.stream().filter(r -> r.state() == State.INFLIGHT).findFirst();
    if (inflight.isPresent()) {
      Optional<TimelineInstant> before =
          completedCommits(active).stream()
              .filter(c -> c.time().compareTo(inflight.get().time()) < 0)
              .reduce((a, b) -> b);
      if (before.isPresent() && oldest.map(o -> compare(o, before.get()) > 0).orElse(true)) {
        oldest = before;
      }
    }
    return oldest.map(TimelineInstant::time);
  }

  /** CompactionUtils.getOldestInstantToRetainForCompaction. */
  private static Optional<String> oldestInstantToRetainForCompaction(
      List<TimelineInstant> active, int maxDeltaCommits) {
    Optional<TimelineInstant> lastCompaction =
        active.stream()
            .filter(i -> i.isCompleted() && i.action() == Action.COMMIT)
            .reduce((a, b) -> b);
    List<TimelineInstant> deltaCommits =
        active.stream().filter(i -> i.action() == Action.DELTA_COMMIT).toList();
    List<TimelineInstant> since;
    TimelineInstant anchor;
    if (lastCompaction.isPresent()) {
      anchor = lastCompaction.get();
      since = deltaCommits.stream().filter(d -> d.time().compareTo(anchor.time()) > 0).toList();
    } else if (!deltaCommits.isEmpty()) {
      anchor = deltaCommits.get(0);
      since = deltaCommits.stream().filter(d -> d.time().compareTo(anchor.time()) >= 0).toList();
    } else {
      return Optional.empty();
    }
    if (since.size() < maxDeltaCommits) {
      return Optional.of(anchor.time());
    }
    List<TimelineInstant> upTo = since.stream().limit(since.size() - maxDeltaCommits + 1).toList();
    return Optional.of(upTo.get(upTo.size() - 1).time());
  }
}
