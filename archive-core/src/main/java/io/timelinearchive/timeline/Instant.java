package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;

/**
 * One state file of one instant: its time, the action named in the file name and the state. A
 * completed compaction is therefore {@code (T, commit, COMPLETED)} and its plan {@code (T,
 * compaction, REQUESTED)}; both share the key {@code (T, commit)}.
 */
public record Instant(String time, Action action, State state) implements Comparable<Instant> {

  /** Time, then comparable action, then state in life order: the order of a sorted timeline. */
  public static final Comparator<Instant> ORDER =
      Comparator.comparing(Instant::time)
          .thenComparing(i -> i.action().comparable())
          .thenComparing(Instant::state)
          .thenComparing(Instant::action);

  public Instant {
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
  public int compareTo(Instant other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return time + " " + action + " " + state;
  }
}
