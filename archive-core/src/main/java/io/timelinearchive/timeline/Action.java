package io.timelinearchive.timeline;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The actions of a Hudi 0.x timeline, by the name used in instant file names. */
public enum Action {
  COMMIT("commit"),
  DELTA_COMMIT("deltacommit"),
  REPLACE_COMMIT("replacecommit"),
  COMPACTION("compaction"),
  LOG_COMPACTION("logcompaction"),
  CLEAN("clean"),
  ROLLBACK("rollback"),
  SAVEPOINT("savepoint"),
  RESTORE("restore"),
  INDEXING("indexing"),
  SCHEMA_COMMIT("schemacommit");

  private static final Map<String, Action> BY_NAME =
      Arrays.stream(values())
          .collect(Collectors.toUnmodifiableMap(a -> a.name, Function.identity()));

  private final String name;

  Action(String name) {
    this.name = name;
  }

  /** The name as written in file names and archive entries, for example {@code deltacommit}. */
  public String actionName() {
    return name;
  }

  public static Optional<Action> fromName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /**
   * The action whose completed file ends this one: a compaction completes as a commit and a log
   * compaction as a deltacommit. All state files of one instant share (time, comparable action).
   */
  public Action comparable() {
    return switch (this) {
      case COMPACTION -> COMMIT;
      case LOG_COMPACTION -> DELTA_COMMIT;
      default -> this;
    };
  }

  /** Actions whose pending instants block the archival of later commits (the write timeline). */
  public boolean isWriteAction() {
    return switch (this) {
      case COMMIT, DELTA_COMMIT, REPLACE_COMMIT, COMPACTION, LOG_COMPACTION -> true;
      default -> false;
    };
  }

  @Override
  public String toString() {
    return name;
  }
}
