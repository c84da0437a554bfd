package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Grammar;
import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the instants one archival run takes, by the rules of Apache Hudi 0.15's {@code
 * HoodieTimelineArchiver#getInstantsToArchive}, then applies our minimum age and per-run cap.
 *
 * <p>A pure function of its arguments, linear in the size of the timeline.
 */
public final class InstantSelector {
  private InstantSelector() {}

  /**
   * @param timeline every instant state file of the active timeline
   * @param now the time {@code archive.retain.min-age} counts back from; unused without it
   */
  public static ArchivalPlan plan(
      Timeline timeline, TableFacts facts, ArchivalPolicy policy, java.time.Instant now) {
    requireNonNull(timeline, "timeline is null");
    requireNonNull(facts, "facts is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(now, "now is null");
    return new Selection(timeline, facts, policy, now).plan();
  }

  /** The working state of one call; groups are the instants, indexed in timeline order. */
  private static final class Selection {
    private final List<TimelineInstant> files;
    private final TableFacts facts;
    private final ArchivalPolicy policy;
    private final java.time.Instant now;
    private final List<String> warnings = new ArrayList<>();

    // group g holds files[start[g] .. start[g + 1]); latest[g] is its furthest state, the first
    // of equals, as Hudi's layout-1 timeline keeps it
    private int groupCount;
    private int[] start;
    private TimelineInstant[] latest;

    private final Ints commits = new Ints();
    private final Ints cleans = new Ints();
    private final Ints rollbacks = new Ints();
    private final Ints deltaCommits = new Ints();
    private final Ints replaceCommits = new Ints();
    private final Set<String> savepointTimes = new HashSet<>();
    private String firstSavepoint;
    private int firstPendingWrite = -1;
    private int firstPendingCommit = -1;
    private int firstInflightReplaceCommit = -1;
    private int lastCompletedCommitAction = -1;

    private int minCommits;
    private int maxCommits;

    Selection(Timeline timeline, TableFacts facts, ArchivalPolicy policy, java.time.Instant now) {
      this.files = timeline.instants();
      this.facts = facts;
      this.policy = policy;
      this.now = now;
    }

    ArchivalPlan plan() {
      group();
      classify();
      widenMinAndMax();

      Scoped commitScope = selectCommits();
      Scoped cleanScope = trim(Scope.CLEAN, "clean instants", cleans);
      Scoped rollbackScope = trim(Scope.ROLLBACK, "rollback instants", rollbacks);
      List<Scoped> scopes = List.of(commitScope, cleanScope, rollbackScope);
      for (Scoped scope : scopes) {
        limitByMetadataTable(scope);
        limitByMinAge(scope);
      }
      capPerRun(scopes);
      return toPlan(scopes);
    }

    private void group() {
      int n = files.size();
      start = new int[n + 1];
      latest = new TimelineInstant[n];
      TimelineInstant previous = null;
      for (int i = 0; i < n; i++) {
        TimelineInstant file = files.get(i);
        // the files of one instant are adjacent in a sorted timeline; compare keys without
        // building one per file
        if (previous == null
            || file.action().comparable() != previous.action().comparable()
            || !file.time().equals(previous.time())) {
          start[groupCount] = i;
          latest[groupCount] = file;
          groupCount++;
          previous = file;
        } else if (file.state().compareTo(latest[groupCount - 1].state()) > 0) {
          latest[groupCount - 1] = file;
        }
      }
      start[groupCount] = n;
    }

    private void classify() {
      for (int g = 0; g < groupCount; g++) {
        TimelineInstant instant = latest[g];
        Action action = instant.action();
        if (instant.isCompleted()) {
          switch (action) {
            case COMMIT -> {
              commits.add(g);
              lastCompletedCommitAction = g;
            }
            case DELTA_COMMIT, REPLACE_COMMIT -> commits.add(g);
            case CLEAN -> cleans.add(g);
            case ROLLBACK -> rollbacks.add(g);
            case SAVEPOINT -> {
              if (firstSavepoint == null) {
                firstSavepoint = instant.time();
              }
              savepointTimes.add(instant.time());
            }
            default -> {}
          }
        } else {
          if (firstPendingWrite < 0 && action.isWriteAction()) {
            firstPendingWrite = g;
          }
          if (firstPendingCommit < 0 && isCommitAction(action)) {
            firstPendingCommit = g;
          }
        }
        if (action == Action.DELTA_COMMIT) {
          deltaCommits.add(g);
        }
        if (action == Action.REPLACE_COMMIT) {
          replaceCommits.add(g);
          if (firstInflightReplaceCommit < 0 && instant.state() == State.INFLIGHT) {
            firstInflightReplaceCommit = g;
          }
        }
      }
    }

    private static boolean isCommitAction(Action action) {
      return action == Action.COMMIT
          || action == Action.DELTA_COMMIT
          || action == Action.REPLACE_COMMIT;
    }

    private String time(int group) {
      return latest[group].time();
    }

    // Hudi's ArchivalUtils.getMinAndMaxInstantsToKeep: keep every commit the cleaner still needs,
    // plus one, by raising min and max together.
    private void widenMinAndMax() {
      minCommits = policy.minCommits();
      maxCommits = policy.maxCommits();
      Optional<Integer> earliest = earliestCommitToRetainForCleaner();
      if (earliest.isEmpty()) {
        return;
      }
      int neededByCleaner = commits.size() - earliest.get() - 1 + 2;
      if (policy.minCommits() >= neededByCleaner) {
        return;
      }
      minCommits = neededByCleaner;
      maxCommits = neededByCleaner + policy.maxCommits() - policy.minCommits();
      String cleaner =
          switch (policy.cleanerPolicy()) {
            case KEEP_LATEST_COMMITS ->
                ArchivalPolicy.CLEANER_COMMITS_RETAINED + "=" + policy.cleanerCommitsRetained();
            case KEEP_LATEST_BY_HOURS ->
                ArchivalPolicy.CLEANER_HOURS_RETAINED + "=" + policy.cleanerHoursRetained();
            case KEEP_LATEST_FILE_VERSIONS -> "";
          };
      warnings.add(
          ArchivalPolicy.MIN_COMMITS
              + "="
              + policy.minCommits()
              + " is more aggressive than the cleaner ("
              + ArchivalPolicy.CLEANER_POLICY
              + "="
              + policy.cleanerPolicy()
              + " "
              + cleaner
              + ", earliest commit to retain "
              + time(commits.get(earliest.get()))
              + "); as Hudi does, using "
              + ArchivalPolicy.MIN_COMMITS
              + "="
              + minCommits
              + " and "
              + ArchivalPolicy.MAX_COMMITS
              + "="
              + maxCommits);
    }

    /** Hudi's CleanerUtils.getEarliestCommitToRetain, as a position in {@link #commits}. */
    private Optional<Integer> earliestCommitToRetainForCleaner() {
      int count = commits.size();
      if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_COMMITS
          && count > policy.cleanerCommitsRetained()) {
        int nth = count - policy.cleanerCommitsRetained();
        if (nth >= count) {
          return Optional.empty();
        }
        if (firstPendingCommit >= 0 && commits.get(nth) > firstPendingCommit) {
          // never later than the oldest pending commit: the last completed one before it
          int before = countBefore(commits, time(firstPendingCommit));
          return before == 0 ? Optional.empty() : Optional.of(before - 1);
        }
        return Optional.of(nth);
      }
      if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_BY_HOURS && count > 0) {
        String latestTime = time(commits.get(count - 1));
        Optional<LocalDateTime> parsed = InstantTimes.parse(latestTime);
        if (parsed.isEmpty()) {
          warnings.add(
              "cannot read the latest commit time "
                  + latestTime
                  + " as a date; "
                  + ArchivalPolicy.CLEANER_HOURS_RETAINED
                  + " does not widen "
                  + ArchivalPolicy.MIN_COMMITS);
          return Optional.empty();
        }
        LocalDateTime earliestToRetain =
            ZonedDateTime.of(parsed.get(), facts.timelineZone())
                .minusHours(policy.cleanerHoursRetained())
                .toLocalDateTime();
        int before = countBefore(commits, InstantTimes.format(earliestToRetain));
        return before < count ? Optional.of(before) : Optional.empty();
      }
      return Optional.empty();
    }

    private Scoped selectCommits() {
      Scoped scope = new Scoped(Scope.COMMITS);
      int count = commits.size();
      if (count == 0) {
        scope.stop(Kind.NOTHING_TO_ARCHIVE, null, "nothing to archive: no completed commits");
        return scope;
      }
      if (count <= maxCommits) {
        scope.stop(Kind.BELOW_MAX, null, "below max commits (" + count + " <= " + maxCommits + ")");
        return scope;
      }
      List<Bound> bounds = commitBounds();
      int limit = count - minCommits;
      for (int pos = 0; pos < count; pos++) {
        int group = commits.get(pos);
        if (policy.archiveBeyondSavepoint() && savepointTimes.contains(time(group))) {
          continue; // passed over; without beyond-savepoint the first savepoint is a bound
        }
        // Each bound keeps the commits from its time on: stop at the first commit one keeps, which
        // the smallest bound decides; when several keep it, the first rule names the barrier.
        for (Bound bound : bounds) {
          if (time(group).compareTo(bound.time()) >= 0) {
            scope.stop(bound.kind(), bound.instantTime(), bound.message());
            return scope;
          }
        }
        if (scope.chosen.size() == limit) {
          scope.stop(Kind.MIN_COMMITS, time(group), "keeping min commits (" + minCommits + ")");
          return scope;
        }
        scope.chosen.add(group);
      }
      // only with archive beyond savepoint, once every commit left is a savepointed one (at least
      // min of them, so there is one)
      String firstLeft = null;
      for (int pos = 0; pos < count && firstLeft == null; pos++) {
        if (savepointTimes.contains(time(commits.get(pos)))) {
          firstLeft = time(commits.get(pos));
        }
      }
      scope.stop(Kind.SAVEPOINT, firstLeft, "every remaining commit is savepointed");
      return scope;
    }

    /**
     * The rules that keep commits from some time on, each as that time, in Hudi's order: the first
     * savepoint, the oldest pending write, merge-on-read compaction and clustering. (The last rule,
     * min commits, counts rather than compares times.)
     */
    private List<Bound> commitBounds() {
      List<Bound> bounds = new ArrayList<>();
      if (!policy.archiveBeyondSavepoint() && firstSavepoint != null) {
        bounds.add(
            new Bound(
                Kind.SAVEPOINT,
                firstSavepoint,
                firstSavepoint,
                "first savepoint at " + firstSavepoint));
      }
      // Hudi's "oldest commit to retain": the last completed commit before the oldest pending
      // write instant (or that instant itself when no commit precedes it); it is kept too.
      if (firstPendingWrite >= 0) {
        String pendingTime = time(firstPendingWrite);
        int before = countBefore(commits, pendingTime);
        String kept = before == 0 ? pendingTime : time(commits.get(before - 1));
        bounds.add(
            new Bound(
                Kind.PENDING_INSTANT,
                kept,
                pendingTime,
                "oldest pending "
                    + latest[firstPendingWrite].action()
                    + " at "
                    + pendingTime
                    + (before == 0
                        ? ""
                        : " (the last completed commit before it, " + kept + ", stays too)")));
      }
      if (facts.tableType() == TableFacts.TableType.MERGE_ON_READ
          && policy.compactionTrigger().countsDeltaCommits()) {
        String compaction = earliestInstantToRetainForCompaction();
        if (compaction != null) {
          bounds.add(
              new Bound(
                  Kind.COMPACTION_RETENTION,
                  compaction,
                  compaction,
                  "merge-on-read compaction keeps the delta commits from "
                      + compaction
                      + " ("
                      + ArchivalPolicy.COMPACTION_MAX_DELTA_COMMITS
                      + "="
                      + policy.compactionMaxDeltaCommits()
                      + ")"));
        }
      }
      Bound clustering = earliestInstantToRetainForClustering();
      if (clustering != null) {
        bounds.add(clustering);
      }
      return bounds;
    }

    // Hudi's CompactionUtils.getOldestInstantToRetainForCompaction: keep the delta commits since
    // the last completed compaction (a completed commit) that the next compaction plan counts.
    private String earliestInstantToRetainForCompaction() {
      int anchor;
      int from;
      if (lastCompletedCommitAction >= 0) {
        anchor = lastCompletedCommitAction;
        from = countAtOrBefore(deltaCommits, time(anchor));
      } else if (deltaCommits.size() > 0) {
        anchor = deltaCommits.get(0);
        from = 0;
      } else {
        return null;
      }
      int since = deltaCommits.size() - from;
      int max = policy.compactionMaxDeltaCommits();
      if (since < max) {
        return time(anchor);
      }
      return time(deltaCommits.get(from + since - max));
    }

    // Hudi's ClusteringUtils.getOldestInstantToRetainForClustering: a replacecommit stays until the
    // cleaner has removed the file groups it replaced (else readers would see them again), and an
    // inflight one keeps the commit before it.
    private Bound earliestInstantToRetainForClustering() {
      if (replaceCommits.size() == 0) {
        return null;
      }
      int oldest;
      String why;
      if (cleans.size() == 0) {
        oldest = replaceCommits.get(0);
        why = " stays until a clean has run";
      } else {
        String cleanTime = time(cleans.get(cleans.size() - 1));
        Optional<TableFacts.LatestClean> clean =
            facts.latestClean().filter(c -> c.time().equals(cleanTime));
        if (clean.isEmpty()) {
          oldest = replaceCommits.get(0);
          why = " stays: the plan of the latest clean, " + cleanTime + ", was not given";
          warnings.add(
              "the plan of the latest clean, "
                  + cleanTime
                  + ", was not given: every replacecommit from the first one is kept");
        } else {
          String retainedFrom =
              clean.get().earliestInstantToRetain().filter(t -> !t.isEmpty()).orElse(cleanTime);
          int pos = countBefore(replaceCommits, retainedFrom);
          oldest = pos < replaceCommits.size() ? replaceCommits.get(pos) : -1;
          why =
              " stays until the cleaner passes it (the clean at "
                  + cleanTime
                  + " retains from "
                  + retainedFrom
                  + ")";
        }
      }
      if (firstInflightReplaceCommit >= 0) {
        int before = countBefore(commits, time(firstInflightReplaceCommit));
        if (before > 0 && (oldest < 0 || oldest > commits.get(before - 1))) {
          oldest = commits.get(before - 1);
          why =
              " stays: it is the last completed commit before the inflight replacecommit at "
                  + time(firstInflightReplaceCommit);
        }
      }
      if (oldest < 0) {
        return null;
      }
      return new Bound(
          Kind.CLUSTERING_RETENTION,
          time(oldest),
          time(oldest),
          latest[oldest].action() + " at " + time(oldest) + why);
    }

    // Hudi's getCleanInstantsToArchive: per action, above max the oldest (count - min).
    private Scoped trim(Scope scopeName, String what, Ints completed) {
      Scoped scope = new Scoped(scopeName);
      int count = completed.size();
      if (count == 0) {
        scope.stop(Kind.NOTHING_TO_ARCHIVE, null, "nothing to archive: no completed " + what);
      } else if (count <= maxCommits) {
        scope.stop(
            Kind.BELOW_MAX, null, "below max " + what + " (" + count + " <= " + maxCommits + ")");
      } else {
        int keep = count - minCommits;
        for (int pos = 0; pos < keep; pos++) {
          scope.chosen.add(completed.get(pos));
        }
        scope.stop(
            Kind.MIN_COMMITS,
            time(completed.get(keep)),
            "keeping min " + what + " (" + minCommits + ")");
      }
      return scope;
    }

    private void limitByMetadataTable(Scoped scope) {
      if (facts.metadataTable().isEmpty() || scope.chosen.size() == 0) {
        return;
      }
      Optional<String> compaction = facts.metadataTable().get().latestCompactionTime();
      if (compaction.isEmpty()) {
        scope.chosen.truncate(0);
        scope.stop(Kind.METADATA_TABLE, null, "metadata table not compacted yet");
        return;
      }
      int kept = countBefore(scope.chosen, compaction.get());
      if (kept < scope.chosen.size()) {
        scope.chosen.truncate(kept);
        scope.stop(
            Kind.METADATA_TABLE,
            compaction.get(),
            "metadata table not compacted past " + compaction.get());
      }
    }

    private void limitByMinAge(Scoped scope) {
      if (policy.retainMinAge().isEmpty() || scope.chosen.size() == 0) {
        return;
      }
      String cutoff = InstantTimes.cutoff(now, policy.retainMinAge().get(), facts.timelineZone());
      int kept = 0;
      while (kept < scope.chosen.size()
          && InstantTimes.atOrBefore(time(scope.chosen.get(kept)), cutoff)) {
        kept++;
      }
      if (kept < scope.chosen.size()) {
        String firstKept = time(scope.chosen.get(kept));
        scope.chosen.truncate(kept);
        scope.stop(
            Kind.MIN_AGE,
            firstKept,
            "retain min-age "
                + Grammar.formatDuration(policy.retainMinAge().get())
                + (cutoff.isEmpty() ? "" : " (instants after " + cutoff + " stay)"));
      }
    }

    // The cap keeps the oldest instants of all scopes together, so commits stay a prefix.
    private void capPerRun(List<Scoped> scopes) {
      if (policy.maxInstantsPerRun().isEmpty()) {
        return;
      }
      int cap = policy.maxInstantsPerRun().getAsInt();
      Ints all = merge(scopes);
      if (all.size() <= cap) {
        return;
      }
      int firstLeft = all.get(cap);
      for (Scoped scope : scopes) {
        int kept = countBelow(scope.chosen, firstLeft);
        if (kept < scope.chosen.size()) {
          String firstKept = time(scope.chosen.get(kept));
          scope.chosen.truncate(kept);
          scope.stop(Kind.RUN_CAP, firstKept, "per-run cap " + cap);
        }
      }
    }

    private static Ints merge(List<Scoped> scopes) {
      int total = 0;
      for (Scoped scope : scopes) {
        total += scope.chosen.size();
      }
      int[] merged = new int[total];
      int at = 0;
      for (Scoped scope : scopes) {
        System.arraycopy(scope.chosen.values, 0, merged, at, scope.chosen.size());
        at += scope.chosen.size();
      }
      Arrays.sort(merged);
      return new Ints(merged);
    }

    private ArchivalPlan toPlan(List<Scoped> scopes) {
      Ints selected = merge(scopes);
      List<InstantKey> keys = new ArrayList<>(selected.size());
      int fileCount = 0;
      for (int i = 0; i < selected.size(); i++) {
        int group = selected.get(i);
        fileCount += start[group + 1] - start[group];
      }
      // Sized once and filled by index: at 10^6 instants, growing the list and a sub-list copy per
      // instant were most of the garbage of a call.
      List<TimelineInstant> selectedFiles = new ArrayList<>(fileCount);
      Map<Action, Integer> counts = new EnumMap<>(Action.class);
      for (int i = 0; i < selected.size(); i++) {
        int group = selected.get(i);
        InstantKey key = latest[group].key();
        keys.add(key);
        counts.merge(key.action(), 1, Integer::sum);
        for (int f = start[group]; f < start[group + 1]; f++) {
          selectedFiles.add(files.get(f));
        }
      }
      List<Barrier> barriers = new ArrayList<>();
      for (Scoped scope : scopes) {
        barriers.add(scope.barrier);
      }
      return new ArchivalPlan(
          keys, selectedFiles, counts, barriers, minCommits, maxCommits, warnings);
    }

    /** How many of {@code groups} (ascending) have a time before {@code time}. */
    private int countBefore(Ints groups, String time) {
      int low = 0;
      int high = groups.size();
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (time(groups.get(mid)).compareTo(time) < 0) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    /** How many of {@code groups} (ascending) have a time at or before {@code time}. */
    private int countAtOrBefore(Ints groups, String time) {
      int low = 0;
      int high = groups.size();
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (time(groups.get(mid)).compareTo(time) <= 0) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    /** How many of {@code groups} (ascending) come before group {@code group}. */
    private static int countBelow(Ints groups, int group) {
      int low = 0;
      int high = groups.size();
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (groups.get(mid) < group) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }
  }

  /**
   * A rule's bound: commits at or after {@code time} are kept, for the reason {@code message}
   * gives; {@code instantTime} is the instant the barrier names (the pending instant, say, where
   * the bound is the commit before it).
   */
  private record Bound(Kind kind, String time, String instantTime, String message) {}

  /** The instants chosen in one scope so far, and why the scope stops there. */
  private static final class Scoped {
    final Scope scope;
    final Ints chosen = new Ints();
    Barrier barrier;

    Scoped(Scope scope) {
      this.scope = scope;
    }

    void stop(Kind kind, String instantTime, String message) {
      barrier = new Barrier(scope, kind, Optional.ofNullable(instantTime), message);
    }
  }

  /** A growable list of group indexes, ascending; boxed lists cost too much at 10^6 instants. */
  private static final class Ints {
    int[] values;
    private int size;

    Ints() {
      this.values = new int[16];
    }

    Ints(int[] values) {
      this.values = values;
      this.size = values.length;
    }

    void add(int value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    int get(int index) {
      return values[index];
    }

    int size() {
      return size;
    }

    void truncate(int newSize) {
      size = newSize;
    }
  }
}
