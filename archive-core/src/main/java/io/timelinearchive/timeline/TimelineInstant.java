package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;

/**
 * One state file of one instant: its time, the action named in the file name and the state. A
 * completed compaction is therefore {@code (T, commit, COMPLETED)} and its plan {@code (T,
 * compaction, REQUESTED)}; both share the key {@code (T, commit)}.
 */
public record TimelineInstant(String time, Action action, State state)
    implements Comparable<TimelineInstant> {

  /** Time, then comparable action, then state in life order: the order of a sorted timeline. */
  public static final Comparator<TimelineInstant> ORDER =
      Comparator.comparing(TimelineInstant::time)
          .thenComparing(i -> i.action().comparable())
          .thenComparing(TimelineInstant::state)
          .thenComparing(TimelineInstant::action);

  public TimelineInstant {
    requireNonNull(time, "time is null");
    requireNonNull(action, "action is null");
    requireNonNull(state, "state is null");
    if (time.isEmpty() || !time.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("invalid instant time '" + time + "'");
    }
  }

  /** The identity shared by all state files of one instant. */
  public InstantKey key() {
    return new InstantKey(time, action.comparable());
  }

  public boolean isCompleted() {
    return state == State.COMPLETED;
  }

  /** The file name Hudi 0.x writes for this state (see {@link InstantFileName}). */
  public String fileName() {
    return InstantFileName.of(this);
  }

  @Override
  public int compareTo(TimelineInstant other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return time + " " + action + " " + state;
  }
}
