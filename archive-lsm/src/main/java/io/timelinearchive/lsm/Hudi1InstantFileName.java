package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.State;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hudi 1.x instant file names ({@code .hoodie/timeline/}). A pending state is named as in Hudi 0.x
 * ({@code T.deltacommit.requested}, {@code T.inflight} for a commit's inflight state); a completed
 * one carries its completion time, {@code T_C.commit}. A completed name without one ({@code
 * T.commit}) is a legacy name kept from the table's Hudi 0.x days, whose completion time Hudi takes
 * from the file's modification time. Only the extensions Hudi 1.0 lists in its active timeline are
 * instants; the completed state of a compaction, log compaction or clustering is named {@code
 * commit}, {@code deltacommit} and {@code replacecommit}.
 */
public final class Hudi1InstantFileName {
  // Hudi 1.0's own pattern: requested time with an optional _completion time, .action, then an
  // optional state
  private static final Pattern NAME = Pattern.compile("^(\\d+)(?:_(\\d+))?(\\.\\w+)(\\.\\D+)?$");

  /** Each extension of an instant file, after the times: the action and state it names. */
  private static final Map<String, Named> EXTENSIONS = extensions();

  private Hudi1InstantFileName() {}

  private record Named(String action, State state) {}

  private static Map<String, Named> extensions() {
    Map<String, Named> m = new HashMap<>();
    for (String action : Hudi1Actions.ALL) {
      if (!action.equals(Hudi1Actions.SAVEPOINT)) {
        m.put("." + action + ".requested", new Named(action, State.REQUESTED));
      }
      m.put("." + action + ".inflight", new Named(action, State.INFLIGHT));
      if (!Hudi1Actions.completesAsAnother(action)) {
        m.put("." + action, new Named(action, State.COMPLETED));
      }
    }
    // a commit's inflight state is the bare .inflight, as in Hudi 0.x
    m.remove("." + Hudi1Actions.COMMIT + ".inflight");
    m.put(".inflight", new Named(Hudi1Actions.COMMIT, State.INFLIGHT));
    return Map.copyOf(m);
  }

  /** The name Hudi 1.x gives an instant state's file. */
  public static String of(Hudi1Instant instant) {
    String time = instant.requestedTime();
    return switch (instant.state()) {
      case COMPLETED ->
          time
              + "_"
              + instant.completionTime().orElseThrow()
              + "."
              + Hudi1Actions.completedAs(instant.action());
      case INFLIGHT ->
          instant.action().equals(Hudi1Actions.COMMIT)
              ? time + ".inflight"
              : time + "." + instant.action() + ".inflight";
      case REQUESTED -> time + "." + instant.action() + ".requested";
    };
  }

  /**
   * What a file name in the timeline folder says: {@link Result.NotAnInstant} for names that do not
   * look like instants (such as {@code hoodie.properties}), {@link Result.Malformed} for names that
   * look like instants but are none Hudi 1.0 lists.
   */
  public static Result parse(String fileName) {
    requireNonNull(fileName, "fileName is null");
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return new Result.NotAnInstant(fileName);
    }
    String extension = m.group(3) + (m.group(4) == null ? "" : m.group(4));
    Named named = EXTENSIONS.get(extension);
    if (named == null) {
      return new Result.Malformed(fileName, "'" + extension + "' is not an instant file extension");
    }
    Optional<String> completion = Optional.ofNullable(m.group(2));
    if (named.state() != State.COMPLETED && completion.isPresent()) {
      return new Result.Malformed(
          fileName, "a " + named.state().name().toLowerCase() + " state has no completion time");
    }
    return new Result.Parsed(m.group(1), named.action(), named.state(), completion);
  }

  /** The outcome of {@link #parse}. */
  public sealed interface Result {
    /**
     * An instant file.
     *
     * @param completionTime the completion time the name carries; empty for pending states and for
     *     a legacy completed name
     */
    record Parsed(String requestedTime, String action, State state, Optional<String> completionTime)
        implements Result {}

    record NotAnInstant(String fileName) implements Result {}

    record Malformed(String fileName, String reason) implements Result {}
  }
}
