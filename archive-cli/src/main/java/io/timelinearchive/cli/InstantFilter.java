package io.timelinearchive.cli;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** The {@code --action}, {@code --state} and {@code --limit} options of {@code show}. */
final class InstantFilter {
  /**
   * Hudi 1.x's one action beyond Hudi 0.x's (archive-lsm's {@code Hudi1Actions}, not named here:
   * the one-store jars leave archive-lsm out).
   */
  private static final String CLUSTERING = "clustering";

  @Option(
      names = "--action",
      paramLabel = "ACTION",
      description = "Only instant files of this action (commit, deltacommit, clean, ...).")
  String action;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      description = "Only instant files in this state: requested, inflight or completed.")
  String state;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "List at most N instant files (the oldest); the last line gives the total.")
  Integer limit;

  /**
   * Checked before the table is read: a misspelt action or state is a usage error on any table.
   *
   * @throws IllegalArgumentException naming the option and its value
   */
  void check() {
    if (action != null && Action.fromName(action).isEmpty() && !action.equals(CLUSTERING)) {
      throw new IllegalArgumentException("--action " + action + " is not a Hudi action");
    }
    if (state != null) {
      parsedState();
    }
    if (limit != null && limit < 0) {
      throw new IllegalArgumentException("--limit must be 0 or more, not " + limit);
    }
  }

  /** The entries whose instant matches {@code --action} and {@code --state}, in their order. */
  <T> List<T> matching(List<T> entries, Function<T, TimelineInstant> instant) {
    return entries.stream().filter(e -> matches(instant.apply(e))).toList();
  }

  /** The entries whose action and state match {@code --action} and {@code --state}, in order. */
  <T> List<T> matching(List<T> entries, Function<T, String> action, Function<T, State> state) {
    return entries.stream().filter(e -> matches(action.apply(e), state.apply(e))).toList();
  }

  /** The first {@code --limit} entries, or all. */
  <T> List<T> limited(List<T> entries) {
    return limit == null || limit >= entries.size() ? entries : entries.subList(0, limit);
  }

  private boolean matches(TimelineInstant i) {
    return matches(i.action().actionName(), i.state());
  }

  private boolean matches(String actionName, State s) {
    return (action == null || actionName.equals(action)) && (state == null || s == parsedState());
  }

  private State parsedState() {
    return Arrays.stream(State.values())
        .filter(s -> s.name().equalsIgnoreCase(state))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--state "
                        + state
                        + " is not one of "
                        + Arrays.stream(State.values())
                            .map(s -> s.name().toLowerCase(Locale.ROOT))
                            .toList()));
  }
}
