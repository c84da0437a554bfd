package io.timelinearchive.select;

import io.timelinearchive.select.ArchivalPolicy.CleanerPolicy;
import io.timelinearchive.select.Barrier.Kind;
import io.timelinearchive.select.CommitBounds.Bound;
import io.timelinearchive.timeline.Action;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules that keep commits from some time on, as Hudi 1.0.1 applies them ({@code
 * TimelineArchiverV2#getCommitInstantsToArchive}: the smallest of its candidates, by requested
 * time, and the first savepoint), each as a bound. Where they differ from Hudi 0.15's ({@link
 * CommitBounds}): the metadata table and, for a metadata table, its data table are candidates like
 * the others; merge-on-read compaction and the metadata table compare completion times; an inflight
 * replacecommit no longer keeps the commit before it, and the latest clean's savepoints can keep
 * replacecommits.
 */
final class Hudi1CommitBounds {
  private final GroupedTimeline t;
  private final TableFacts facts;
  private final ArchivalPolicy policy;
  private final List<String> warnings;

  private Hudi1CommitBounds(
      GroupedTimeline t, TableFacts facts, ArchivalPolicy policy, List<String> warnings) {
    this.t = t;
    this.facts = facts;
    this.policy = policy;
    this.warnings = warnings;
  }

  /** The bounds in the order Hudi 1.0.1 gathers them; a rule that keeps nothing gives none. */
  static List<Bound> of(
      GroupedTimeline t, TableFacts facts, ArchivalPolicy policy, List<String> warnings) {
    return new Hudi1CommitBounds(t, facts, policy, warnings).bounds();
  }

  private List<Bound> bounds() {
    List<Bound> bounds = new ArrayList<>();
    CommitBounds.firstSavepoint(t, policy).ifPresent(bounds::add);
    CommitBounds.pendingWrite(t).ifPresent(bounds::add);
    if (facts.tableType() == TableFacts.TableType.MERGE_ON_READ
        && policy.compactionTrigger().countsDeltaCommits()) {
      compaction().ifPresent(bounds::add);
    }
    clustering().ifPresent(bounds::add);
    metadataTable().ifPresent(bounds::add);
    dataTable().ifPresent(bounds::add);
    return bounds;
  }

  /** When an instant completed: Hudi 1.x names it in the completed file's name. */
  private String completionTime(int group) {
    String completion = facts.completionTimes().get(t.latest[group].key());
    return completion != null ? completion : t.time(group);
  }

  // Hudi's findInstantsModifiedAfterByCompletionTime(time): a pending instant requested after
  // time, or a completed one that completed after it (other than the instant at time itself).
  private boolean modifiedAfter(int group, String time) {
    if (!t.latest[group].isCompleted()) {
      return t.time(group).compareTo(time) > 0;
    }
    return completionTime(group).compareTo(time) > 0 && !t.time(group).equals(time);
  }

  // Hudi 1.0.1's CompactionUtils.getEarliestInstantToRetainForCompaction: the delta commits that
  // completed (or, pending, were requested) after the latest completed compaction was requested,
  // as many as the next compaction counts.
  private Optional<Bound> compaction() {
    String anchor;
    Ints since = new Ints();
    if (t.lastCompletedCommitAction >= 0) {
      anchor = t.time(t.lastCompletedCommitAction);
      for (int i = 0; i < t.deltaCommits.size(); i++) {
        if (modifiedAfter(t.deltaCommits.get(i), anchor)) {
          since.add(t.deltaCommits.get(i));
        }
      }
    } else if (t.deltaCommits.size() > 0) {
      anchor = t.time(t.deltaCommits.get(0));
      since = t.deltaCommits;
    } else {
      return Optional.empty();
    }
    int max = policy.compactionMaxDeltaCommits();
    String kept = since.size() < max ? anchor : t.time(since.get(since.size() - max));
    return Optional.of(
        new Bound(
            Kind.COMPACTION_RETENTION,
            kept,
            kept,
            "merge-on-read compaction keeps the delta commits from "
                + kept
                + " ("
                + ArchivalPolicy.COMPACTION_MAX_DELTA_COMMITS
                + "="
                + max
                + ", delta commits counted by completion time)"));
  }

  // Hudi 1.0.1's ClusteringUtils.getEarliestInstantToRetainForClustering: the first replacecommit
  // or clustering (any state) the latest clean has not passed yet.
  private Optional<Bound> clustering() {
    if (t.replaceCommits.size() == 0) {
      return Optional.empty();
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
        Optional<String> retain = clean.get().earliestInstantToRetain().filter(s -> !s.isEmpty());
        Optional<String> savepoint = replacedSavepoint(clean.get(), retain);
        String lower = savepoint.orElse(retain.orElse(cleanTime));
        int pos = t.countBefore(t.replaceCommits, lower);
        if (pos == t.replaceCommits.size()) {
          return Optional.empty();
        }
        oldest = t.replaceCommits.get(pos);
        why =
            savepoint.isPresent()
                ? " stays: the latest clean, "
                    + cleanTime
                    + ", keeps what was replaced from its earliest savepoint "
                    + savepoint.get()
                    + " on"
                : " stays until the cleaner passes it (the clean at "
                    + cleanTime
                    + " retains from "
                    + lower
                    + ")";
      }
    }
    return Optional.of(
        new Bound(
            Kind.CLUSTERING_RETENTION,
            t.time(oldest),
            t.time(oldest),
            t.latest[oldest].action() + " at " + t.time(oldest) + why));
  }

  // Hudi 1.0.1's ClusteringUtils.getEarliestReplacedSavepointInClean.
  private Optional<String> replacedSavepoint(
      TableFacts.LatestClean clean, Optional<String> retain) {
    Optional<String> earliestSavepoint =
        clean.savepointedTimestamps().stream().sorted().findFirst().filter(s -> !s.isEmpty());
    if (policy.cleanerPolicy() == CleanerPolicy.KEEP_LATEST_FILE_VERSIONS
        || retain.isEmpty()
        || earliestSavepoint.isEmpty()
        || retain.get().compareTo(earliestSavepoint.get()) <= 0) {
      return Optional.empty();
    }
    for (int i = 0; i < t.replaceCommits.size(); i++) {
      int g = t.replaceCommits.get(i);
      String time = t.time(g);
      if (t.latest[g].isCompleted()
          && t.latest[g].action() == Action.REPLACE_COMMIT
          && time.compareTo(earliestSavepoint.get()) >= 0
          && time.compareTo(retain.get()) <= 0) {
        return earliestSavepoint;
      }
    }
    return Optional.empty();
  }

  // Hudi 1.0.1: nothing while the metadata table has no compaction; else the first completed
  // commit that completed after the metadata table's latest compaction was requested.
  private Optional<Bound> metadataTable() {
    if (facts.metadataTable().isEmpty()) {
      return Optional.empty();
    }
    Optional<String> compaction = facts.metadataTable().get().latestCompactionTime();
    if (compaction.isEmpty()) {
      return Optional.of(
          new Bound(Kind.METADATA_TABLE, "", null, "metadata table not compacted yet"));
    }
    for (int i = 0; i < t.commits.size(); i++) {
      int g = t.commits.get(i);
      if (modifiedAfter(g, compaction.get())) {
        return Optional.of(
            new Bound(
                Kind.METADATA_TABLE,
                t.time(g),
                compaction.get(),
                "metadata table not compacted past "
                    + compaction.get()
                    + " ("
                    + t.time(g)
                    + " completed after it)"));
      }
    }
    return Optional.empty();
  }

  // Archiving a metadata table: its data table's earliest commit or pending instant.
  private Optional<Bound> dataTable() {
    Optional<String> earliest = facts.dataTable().flatMap(TableFacts.DataTable::earliestInstant);
    return earliest.map(
        e ->
            new Bound(
                Kind.DATA_TABLE,
                e,
                e,
                "the data table's earliest commit or pending instant is at "
                    + e
                    + ": its metadata table keeps everything from there on"));
  }
}
