package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Grammar;
import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.Barrier.Scope;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineFormat;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the instants one archival run takes, by the rules of Apache Hudi 0.15's {@code
 * HoodieTimelineArchiver#getInstantsToArchive} for a Hudi 0.x table, or of Hudi 1.0.1's {@code
 * TimelineArchiverV2#getInstantsToArchive} for a Hudi 1.x one, then applies our minimum age and
 * per-run cap.
 *
 * <p>A pure function of its arguments, linear in the size of the timeline.
 */
public final class InstantSelector {
  private InstantSelector() {}

  /**
   * The plan by Hudi 0.15's rules, for a Hudi 0.x table.
   *
   * @param timeline every instant state file of the active timeline
   * @param now the time {@code archive.retain.min-age} counts back from; unused without it
   */
  public static ArchivalPlan plan(
      Timeline timeline, TableFacts facts, ArchivalPolicy policy, java.time.Instant now) {
    return plan(timeline, facts, policy, now, TimelineFormat.HUDI_0);
  }

  /**
   * The plan by the rules of the Hudi that writes {@code rules}: Hudi 0.15's for {@link
   * TimelineFormat#HUDI_0}; Hudi 1.0.1's for {@link TimelineFormat#HUDI_1_LSM}, which counts
   * completed commits only, takes clean and rollback instants requested before the newest commit it
   * takes, and reads {@link TableFacts#completionTimes()}.
   *
   * @param timeline every instant state file of the active timeline
   * @param now the time {@code archive.retain.min-age} counts back from; unused without it
   * @param rules whose archiver's rules to apply
   */
  public static ArchivalPlan plan(
      Timeline timeline,
      TableFacts facts,
      ArchivalPolicy policy,
      java.time.Instant now,
      TimelineFormat rules) {
    requireNonNull(timeline, "timeline is null");
    requireNonNull(facts, "facts is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(now, "now is null");
    requireNonNull(rules, "rules is null");
    Selection selection = new Selection(timeline, facts, policy, now);
    return rules == TimelineFormat.HUDI_1_LSM ? selection.planHudi1() : selection.plan();
  }

  /** The working state of one call; groups are the instants, indexed in timeline order. */
  private static final class Selection {
    private final GroupedTimeline t;
    private final TableFacts facts;
    private final ArchivalPolicy policy;
    private final java.time.Instant now;
    private final List<String> warnings = new ArrayList<>();

    private int minCommits;
    private int maxCommits;

    Selection(Timeline timeline, TableFacts facts, ArchivalPolicy policy, java.time.Instant now) {
      this.t =
          new GroupedTimeline(
              timeline.instants(), facts.tableType() == TableFacts.TableType.MERGE_ON_READ);
      this.facts = facts;
      this.policy = policy;
      this.now = now;
    }

    ArchivalPlan plan() {
      widenMinAndMax();

      Scoped commitScope = selectCommits(CommitBounds.of(t, facts, policy, warnings));
      Scoped cleanScope = trim(Scope.CLEAN, "clean instants", t.cleans);
      Scoped rollbackScope = trim(Scope.ROLLBACK, "rollback instants", t.rollbacks);
      List<Scoped> scopes = List.of(commitScope, cleanScope, rollbackScope);
      for (Scoped scope : scopes) {
        limitByMetadataTable(scope);
        limitByDataTable(scope);
        limitByMinAge(scope);
      }
      capPerRun(scopes);
      return toPlan(scopes);
    }

    // Hudi 1.0.1's TimelineArchiverV2: the commits first, every rule that keeps them a bound
    // (the metadata table's and the data table's too); then the clean and rollback instants
    // requested before the newest commit taken, whatever their count.
    ArchivalPlan planHudi1() {
      widenMinAndMax();

      Scoped commitScope = selectCommits(Hudi1CommitBounds.of(t, facts, policy, warnings));
      limitByMinAge(commitScope);
      Scoped cleanScope = new Scoped(Scope.CLEAN);
      Scoped rollbackScope = new Scoped(Scope.ROLLBACK);
      List<Scoped> scopes = List.of(commitScope, cleanScope, rollbackScope);
      takeBeforeNewestCommit(cleanScope, "clean instants", t.cleans, commitScope);
      takeBeforeNewestCommit(rollbackScope, "rollback instants", t.rollbacks, commitScope);
      limitByMinAge(cleanScope);
      limitByMinAge(rollbackScope);
      // The cap keeps the oldest of all three: a clean it keeps was requested before a commit this
      // run would have taken, which Hudi archives with that commit; re-bounding the cleans by the
      // commits the cap kept could leave a run that takes nothing, every time.
      capPerRun(scopes);
      return toPlan(scopes);
    }

    // Hudi 1.0.1's getCleanAndRollbackInstantsToArchive: the completed ones requested before the
    // newest commit archived, none when no commit is.
    private void takeBeforeNewestCommit(
        Scoped scope, String what, Ints completed, Scoped commitScope) {
      if (completed.size() == 0) {
        scope.stop(Kind.NOTHING_TO_ARCHIVE, null, "nothing to archive: no completed " + what);
        return;
      }
      if (commitScope.chosen.size() == 0) {
        scope.stop(
            Kind.NEWEST_COMMIT,
            null,
            "no commit archived, so no " + what + " (" + commitScope.barrier.message() + ")");
        return;
      }
      String newest = t.time(commitScope.chosen.get(commitScope.chosen.size() - 1));
      int kept = t.countBefore(completed, newest);
      for (int i = 0; i < kept; i++) {
        scope.chosen.add(completed.get(i));
      }
      scope.stop(
          Kind.NEWEST_COMMIT,
          newest,
          what + " requested before the newest commit archived, " + newest + ", go with it");
    }

    // Hudi's ArchivalUtils.getMinAndMaxInstantsToKeep: keep every commit the cleaner still needs,
    // plus one, by raising min and max together.
    private void widenMinAndMax() {
      minCommits = policy.minCommits();
      maxCommits = policy.maxCommits();
      Optional<String> earliest = earliestCommitToRetainForCleaner();
      if (earliest.isEmpty()) {
        return;
      }
      int neededByCleaner = t.commits.size() - t.countAtOrBefore(t.commits, earliest.get()) + 2;
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
              + earliest.get()
              + "); as Hudi does, using "
              + ArchivalPolicy.MIN_COMMITS
              + "="
              + minCommits
              + " and "
              + ArchivalPolicy.MAX_COMMITS
              + "="
              + maxCommits);
    }

    /**
     * Hudi's CleanerUtils.getEarliestCommitToRetain, as Hudi's archiver calls it: over the commits
     * of every type (deltacommits too, on any table), from the latest commit archival counts.
     */
    private Optional<String> earliestCommitToRetainForCleaner() {
      Ints all = t.allCommits;
      int count = all.size();
      if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_COMMITS
          && count > policy.cleanerCommitsRetained()) {
        int nth = count - policy.cleanerCommitsRetained();
        if (nth >= count) {
          return Optional.empty();
        }
        if (t.firstPendingCommit >= 0 && all.get(nth) > t.firstPendingCommit) {
          // never later than the oldest pending commit: the last completed one before it
          int before = t.countBefore(all, t.time(t.firstPendingCommit));
          return before == 0 ? Optional.empty() : Optional.of(t.time(all.get(before - 1)));
        }
        return Optional.of(t.time(all.get(nth)));
      }
      if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_BY_HOURS && count > 0) {
        // Without a commit archival counts, Hudi counts back from now.
        LocalDateTime latest;
        if (t.commits.size() > 0) {
          String latestTime = t.time(t.commits.get(t.commits.size() - 1));
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
          latest = parsed.get();
        } else {
          latest = LocalDateTime.ofInstant(now, facts.timelineZone());
        }
        LocalDateTime earliestToRetain =
            ZonedDateTime.of(latest, facts.timelineZone())
                .minusHours(policy.cleanerHoursRetained())
                .toLocalDateTime();
        int before = t.countBefore(all, InstantTimes.format(earliestToRetain));
        return before < count ? Optional.of(t.time(all.get(before))) : Optional.empty();
      }
      return Optional.empty();
    }

    private Scoped selectCommits(List<CommitBounds.Bound> boundsInOrder) {
      Scoped scope = new Scoped(Scope.COMMITS);
      int count = t.commits.size();
      if (count == 0) {
        scope.stop(Kind.NOTHING_TO_ARCHIVE, null, "nothing to archive: no completed commits");
        return scope;
      }
      if (count <= maxCommits) {
        scope.stop(Kind.BELOW_MAX, null, "below max commits (" + count + " <= " + maxCommits + ")");
        return scope;
      }
      List<CommitBounds.Bound> bounds = boundsInOrder;
      int limit = count - minCommits;
      for (int pos = 0; pos < count; pos++) {
        int group = t.commits.get(pos);
        if (policy.archiveBeyondSavepoint() && t.savepointTimes.contains(t.time(group))) {
          continue; // passed over; without beyond-savepoint the first savepoint is a bound
        }
        // Each bound keeps the commits from its time on: stop at the first commit one keeps,
        // which
        // the smallest bound decides; when several keep it, the first rule names the barrier.
        for (CommitBounds.Bound bound : bounds) {
          if (t.time(group).compareTo(bound.time()) >= 0) {
            scope.stop(bound.kind(), bound.instantTime(), bound.message());
            return scope;
          }
        }
        if (scope.chosen.size() == limit) {
          scope.stop(Kind.MIN_COMMITS, t.time(group), "keeping min commits (" + minCommits + ")");
          return scope;
        }
        scope.chosen.add(group);
      }
      // only with archive beyond savepoint, once every commit left is a savepointed one (at least
      // min of them, so there is one)
      String firstLeft = null;
      for (int pos = 0; pos < count && firstLeft == null; pos++) {
        if (t.savepointTimes.contains(t.time(t.commits.get(pos)))) {
          firstLeft = t.time(t.commits.get(pos));
        }
      }
      scope.stop(Kind.SAVEPOINT, firstLeft, "every remaining commit is savepointed");
      return scope;
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
            t.time(completed.get(keep)),
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
      int kept = t.countBefore(scope.chosen, compaction.get());
      if (kept < scope.chosen.size()) {
        scope.chosen.truncate(kept);
        scope.stop(
            Kind.METADATA_TABLE,
            compaction.get(),
            "metadata table not compacted past " + compaction.get());
      }
    }

    // Hudi's HoodieTimelineArchiver on a metadata table: its data table's rollback of an instant
    // reads the metadata table's records of it, so those stay active.
    private void limitByDataTable(Scoped scope) {
      Optional<String> earliest = facts.dataTable().flatMap(TableFacts.DataTable::earliestInstant);
      if (earliest.isEmpty() || scope.chosen.size() == 0) {
        return;
      }
      int kept = t.countBefore(scope.chosen, earliest.get());
      if (kept < scope.chosen.size()) {
        scope.chosen.truncate(kept);
        scope.stop(
            Kind.DATA_TABLE,
            earliest.get(),
            "the data table's earliest commit or pending instant is at "
                + earliest.get()
                + ": its metadata table keeps everything from there on");
      }
    }

    private void limitByMinAge(Scoped scope) {
      if (policy.retainMinAge().isEmpty() || scope.chosen.size() == 0) {
        return;
      }
      String cutoff = InstantTimes.cutoff(now, policy.retainMinAge().get(), facts.timelineZone());
      int kept = 0;
      while (kept < scope.chosen.size()
          && InstantTimes.atOrBefore(t.time(scope.chosen.get(kept)), cutoff)) {
        kept++;
      }
      if (kept < scope.chosen.size()) {
        String firstKept = t.time(scope.chosen.get(kept));
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
        int kept = scope.chosen.countBelow(firstLeft);
        if (kept < scope.chosen.size()) {
          String firstKept = t.time(scope.chosen.get(kept));
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
        fileCount += t.start[group + 1] - t.start[group];
      }
      // Sized once and filled by index: at 10^6 instants, growing the list and a sub-list copy per
      // instant were most of the garbage of a call.
      List<TimelineInstant> selectedFiles = new ArrayList<>(fileCount);
      Map<Action, Integer> counts = new EnumMap<>(Action.class);
      for (int i = 0; i < selected.size(); i++) {
        int group = selected.get(i);
        InstantKey key = t.latest[group].key();
        keys.add(key);
        counts.merge(key.action(), 1, Integer::sum);
        for (int f = t.start[group]; f < t.start[group + 1]; f++) {
          selectedFiles.add(t.files.get(f));
        }
      }
      List<Barrier> barriers = new ArrayList<>();
      for (Scoped scope : scopes) {
        barriers.add(scope.barrier);
      }
      return new ArchivalPlan(
          keys, selectedFiles, counts, barriers, minCommits, maxCommits, warnings);
    }
  }

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
}
