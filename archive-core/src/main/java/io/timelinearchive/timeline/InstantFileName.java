package io.timelinearchive.timeline;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hudi 0.x instant file names, both ways. Quirks kept on purpose: a commit's inflight file is
 * {@code T.inflight} (no action), a compaction completes as {@code T.commit} and a log compaction
 * as {@code T.deltacommit}.
 */
public final class InstantFileName {
  // Hudi's own pattern: time, then .action (or the bare .inflight of a commit), then an optional
  // state.
  private static final Pattern NAME = Pattern.compile("^(\\d+)(\\.\\w+)(\\.\\D+)?$");

  private InstantFileName() {}

  /** The name Hudi writes for a state file. */
  public static String of(TimelineInstant instant) {
    String time = instant.time();
    String action = instant.action().actionName();
    return switch (instant.state()) {
      case COMPLETED ->
          switch (instant.action()) {
            case COMPACTION, LOG_COMPACTION, CLUSTERING ->
                time + "." + instant.action().comparable();
            default -> time + "." + action;
          };
      case INFLIGHT ->
          instant.action() == Action.COMMIT
              ? time + ".inflight"
              : time + "." + action + ".inflight";
      case REQUESTED -> time + "." + action + ".requested";
    };
  }

  /**
   * What a file name in {@code .hoodie/} says, or {@link Result.NotAnInstant} for names that do not
   * look like instants at all (such as {@code hoodie.properties}), or {@link Result.Malformed} for
   * names that look like instants but cannot be read (unknown action or state).
   */
  public static Result parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return new Result.NotAnInstant(fileName);
    }
    String time = m.group(1);
    String middle = m.group(2).substring(1);
    String last = m.group(3) == null ? null : m.group(3).substring(1);
    if (middle.equals("inflight")) {
      return last == null
          ? new Result.Parsed(new TimelineInstant(time, Action.COMMIT, State.INFLIGHT))
          : new Result.Malformed(fileName, "unexpected suffix ." + last + " after .inflight");
    }
    Optional<Action> action = Action.fromName(middle);
    if (action.isEmpty()) {
      return new Result.Malformed(fileName, "unknown action '" + middle + "'");
    }
    State state;
    if (last == null) {
      state = State.COMPLETED;
    } else if (last.equals("requested")) {
      state = State.REQUESTED;
    } else if (last.equals("inflight")) {
      state = State.INFLIGHT;
    } else {
      return new Result.Malformed(fileName, "unknown state '" + last + "'");
    }
    if (state == State.COMPLETED
        && (action.get() == Action.COMPACTION || action.get() == Action.LOG_COMPACTION)) {
      return new Result.Malformed(
          fileName, "a completed " + middle + " is written as ." + action.get().comparable());
    }
    return new Result.Parsed(new TimelineInstant(time, action.get(), state));
  }

  /** The outcome of {@link #parse}. */
  public sealed interface Result {
    record Parsed(TimelineInstant instant) implements Result {}

    record NotAnInstant(String fileName) implements Result {}

    record Malformed(String fileName, String reason) implements Result {}
  }
}
