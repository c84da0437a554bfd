package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;

/** (time, comparable action): what all state files of one instant have in common. */
public record InstantKey(String time, Action action) implements Comparable<InstantKey> {
  private static final Comparator<InstantKey> ORDER =
      Comparator.comparing(InstantKey::time).thenComparing(InstantKey::action);

  public InstantKey {
    requireNonNull(time, "time is null");
    requireNonNull(action, "action is null");
    if (action.comparable() != action) {
      throw new IllegalArgumentException("not a comparable action: " + action);
    }
  }

  @Override
  public int compareTo(InstantKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return time + " " + action;
  }
}
