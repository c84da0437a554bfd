package io.timelinearchive.select;

import io.timelinearchive.select.Barrier.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules that keep commits from some time on, as Hudi 0.15 applies them, each as a bound: the
 * first savepoint, the oldest pending write, merge-on-read compaction and clustering.
 */
final class CommitBounds {
  /**
   * A rule's bound: commits at or after {@code time} are kept, for the reason {@code message}
   * gives; {@code instantTime} is the instant the barrier names (the pending instant, say, where
   * the bound is the commit before it).
   */
  record Bound(Kind kind, String time, String instantTime, String message) {}

  private final GroupedTimeline t;
  private final TableFacts facts;
  private final ArchivalPolicy policy;
  private final List<String> warnings;

  private CommitBounds(
      GroupedTimeline t, TableFacts facts, ArchivalPolicy policy, List<String> warnings) {
    this.t = t;
    this.facts = facts;
    this.policy = policy;
    this.warnings = warnings;
  }

  /** The bounds in Hudi's order of checking; a rule that keeps nothing gives none. */
  static List<Bound> of(
      GroupedTimeline t, TableFacts facts, ArchivalPolicy policy, List<String> warnings) {
    return new CommitBounds(t, facts, policy, warnings).bounds();
  }

  /**
   * The rules that keep commits from some time on, each as that time, in Hudi's order: the first
   * savepoint, the oldest pending write, merge-on-read compaction and clustering. (The last rule,
   * min commits, counts rather than compares times.)
   */
  private List<Bound> bounds() {
    List<Bound> bounds = new ArrayList<>();
    firstSavepoint(t, policy).ifPresent(bounds::add);
    pendingWrite(t).ifPresent(bounds::add);
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

  /** The first savepoint, unless savepointed commits are skipped (both Hudi versions). */
  static Optional<Bound> firstSavepoint(GroupedTimeline t, ArchivalPolicy policy) {
    if (policy.archiveBeyondSavepoint() || t.firstSavepoint == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Bound(
            Kind.SAVEPOINT,
            t.firstSavepoint,
            t.firstSavepoint,
            "first savepoint at " + t.firstSavepoint));
  }

  /**
   * Hudi's "oldest commit to retain" (both versions): the last completed commit before the oldest
   * pending write instant (or that instant itself when no commit precedes it); it is kept too.
   */
  static Optional<Bound> pendingWrite(GroupedTimeline t) {
    if (t.firstPendingWrite < 0) {
      return Optional.empty();
    }
    String pendingTime = t.time(t.firstPendingWrite);
    int before = t.countBefore(t.commits, pendingTime);
    String kept = before == 0 ? pendingTime : t.time(t.commits.get(before - 1));
    return Optional.of(
        new Bound(
            Kind.PENDING_INSTANT,
            kept,
            pendingTime,
            "oldest pending "
                + t.latest[t.firstPendingWrite].action()
                + " at "
                + pendingTime
                + (before == 0
                    ? ""
                    : " (the last completed commit before it, " + kept + ", stays too)")));
  }

  // Hudi's CompactionUtils.getOldestInstantToRetainForCompaction: keep the delta commits since
  // the last completed compaction (a completed commit) that the next compaction plan counts.
  private String earliestInstantToRetainForCompaction() {
    int anchor;
    int from;
    if (t.lastCompletedCommitAction >= 0) {
      anchor = t.lastCompletedCommitAction;
      from = t.countAtOrBefore(t.deltaCommits, t.time(anchor));
    } else if (t.deltaCommits.size() > 0) {
      anchor = t.deltaCommits.get(0);
      from = 0;
    } else {
      return null;
    }
    int since = t.deltaCommits.size() - from;
    int max = policy.compactionMaxDeltaCommits();
    if (since < max) {
      return t.time(anchor);
    }
    return t.time(t.deltaCommits.get(from + since - max));
  }

  // Hudi's ClusteringUtils.getOldestInstantToRetainForClustering: a replacecommit stays until the
  // cleaner has removed the file groups it replaced (else readers would see them again), and an
  // inflight one keeps the commit before it.
  private Bound earliestInstantToRetainForClustering() {
    if (t.replaceCommits.size() == 0) {
      return null;
    }
    int oldest;
    String why;
    if (t.cleans.size() == 0) {
      oldest = t.replaceCommits.get(0);
      why = " stays until a clean has run";
    } else {
      String cleanTime = t.time(t.cleans.get(t.cleans.size() - 1));
      Optional<TableFacts.LatestClean> clean =
          facts.latestClean().filter(c -> c.time().equals(cleanTime));
      if (clean.isEmpty()) {
        oldest = t.replaceCommits.get(0);
        why = " stays: the plan of the latest clean, " + cleanTime + ", was not given";
        warnings.add(
            "the plan of the latest clean, "
                + cleanTime
                + ", was not given: every replacecommit from the first one is kept");
      } else {
        String retainedFrom =
            clean.get().earliestInstantToRetain().filter(t -> !t.isEmpty()).orElse(cleanTime);
        int pos = t.countBefore(t.replaceCommits, retainedFrom);
        oldest = pos < t.replaceCommits.size() ? t.replaceCommits.get(pos) : -1;
        why =
            " stays until the cleaner passes it (the clean at "
                + cleanTime
                + " retains from "
                + retainedFrom
                + ")";
      }
    }
    if (t.firstInflightReplaceCommit >= 0) {
      // Hudi counts the commits of every type here, deltacommits too on any table.
      int before = t.countBefore(t.allCommits, t.time(t.firstInflightReplaceCommit));
      if (before > 0 && (oldest < 0 || oldest > t.allCommits.get(before - 1))) {
        oldest = t.allCommits.get(before - 1);
        why =
            " stays: it is the last completed commit before the inflight replacecommit at "
                + t.time(t.firstInflightReplaceCommit);
      }
    }
    if (oldest < 0) {
      return null;
    }
    return new Bound(
        Kind.CLUSTERING_RETENTION,
        t.time(oldest),
        t.time(oldest),
        t.latest[oldest].action() + " at " + t.time(oldest) + why);
  }
}
