package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.State;
import java.util.Comparator;
import java.util.Optional;

/**
 * One instant state of a Hudi 1.x timeline: an instant file of {@code .hoodie/timeline/}, or a row
 * of the LSM history (always completed there).
 *
 * @param requestedTime the instant time, when the instant was requested; what Hudi 0.x called the
 *     instant's time
 * @param action the action as Hudi names it in this state: a compaction's pending states say {@code
 *     compaction}, its completed one {@code commit} (see {@link Hudi1Actions#completedAs})
 * @param state requested, inflight or completed
 * @param completionTime when a completed instant completed; empty for pending states, and for a
 *     history row written without one
 */
public record Hudi1Instant(
    String requestedTime, String action, State state, Optional<String> completionTime) {

  /**
   * Requested time, then the action it completes as, then state in life order: Hudi 1.x's order of
   * a timeline by requested time.
   */
  public static final Comparator<Hudi1Instant> ORDER =
      Comparator.comparing(Hudi1Instant::requestedTime)
          .thenComparing(i -> Hudi1Actions.completedAs(i.action()))
          .thenComparing(Hudi1Instant::state)
          .thenComparing(Hudi1Instant::action);

  public Hudi1Instant {
    requireNonNull(requestedTime, "requestedTime is null");
    requireNonNull(action, "action is null");
    requireNonNull(state, "state is null");
    requireNonNull(completionTime, "completionTime is null");
    if (!isTime(requestedTime)) {
      throw new IllegalArgumentException("invalid instant time '" + requestedTime + "'");
    }
    if (state != State.COMPLETED && completionTime.isPresent()) {
      throw new IllegalArgumentException(
          state + " instant " + requestedTime + " " + action + " has a completion time");
    }
    completionTime.ifPresent(
        c -> {
          if (!isTime(c)) {
            throw new IllegalArgumentException("invalid completion time '" + c + "'");
          }
        });
  }

  public boolean isCompleted() {
    return state == State.COMPLETED;
  }

  static boolean isTime(String time) {
    return !time.isEmpty() && time.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  @Override
  public String toString() {
    return requestedTime
        + " "
        + action
        + " "
        + state
        + completionTime.map(c -> " (completed " + c + ")").orElse("");
  }
}
