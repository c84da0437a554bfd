package io.timelinearchive.select;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A sorted timeline as selection sees it: its state files grouped into instants (group {@code g} is
 * the {@code g}-th instant in timeline order), and the groups each rule asks about, found in one
 * pass. Indexes into arrays rather than objects per instant: selection runs over 10^6 instants.
 */
final class GroupedTimeline {
  final List<TimelineInstant> files;
  // group g holds files[start[g] .. start[g + 1]); latest[g] is its furthest state, the first
  // of equals, as Hudi's layout-1 timeline keeps it
  int groupCount;
  int[] start;
  TimelineInstant[] latest;

  /**
   * Hudi's completed commits timeline, the commits archival counts and archives: commit and
   * replacecommit, and on a merge-on-read table deltacommit too.
   */
  final Ints commits = new Ints();

  /** Completed commit, deltacommit and replacecommit instants whatever the table type. */
  final Ints allCommits = new Ints();

  final Ints cleans = new Ints();
  final Ints rollbacks = new Ints();
  final Ints deltaCommits = new Ints();

  /** Replacecommit instants, and Hudi 1.x's clustering ones, in any state. */
  final Ints replaceCommits = new Ints();

  final Set<String> savepointTimes = new HashSet<>();
  String firstSavepoint;
  int firstPendingWrite = -1;
  int firstPendingCommit = -1;
  int firstInflightReplaceCommit = -1;
  int lastCompletedCommitAction = -1;

  private final boolean mergeOnRead;

  GroupedTimeline(List<TimelineInstant> files, boolean mergeOnRead) {
    this.files = files;
    this.mergeOnRead = mergeOnRead;
    group();
    classify();
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
            allCommits.add(g);
            lastCompletedCommitAction = g;
          }
          case REPLACE_COMMIT -> {
            commits.add(g);
            allCommits.add(g);
          }
          case DELTA_COMMIT -> {
            // A copy-on-write table's commits timeline leaves deltacommits out (a table whose
            // type was changed keeps them), as Hudi's HoodieTableMetaClient#getCommitsTimeline.
            if (mergeOnRead) {
              commits.add(g);
            }
            allCommits.add(g);
          }
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
      // a pending clustering (Hudi 1.x) is a replacecommit to come
      if (action == Action.REPLACE_COMMIT || action == Action.CLUSTERING) {
        replaceCommits.add(g);
        if (firstInflightReplaceCommit < 0
            && action == Action.REPLACE_COMMIT
            && instant.state() == State.INFLIGHT) {
          firstInflightReplaceCommit = g;
        }
      }
    }
  }

  private static boolean isCommitAction(Action action) {
    return action == Action.COMMIT
        || action == Action.DELTA_COMMIT
        || action == Action.REPLACE_COMMIT
        || action == Action.CLUSTERING;
  }

  String time(int group) {
    return latest[group].time();
  }

  /** How many of {@code groups} (ascending) have a time before {@code time}. */
  int countBefore(Ints groups, String time) {
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
  int countAtOrBefore(Ints groups, String time) {
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
}
