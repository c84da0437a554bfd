package io.timelinearchive.timeline;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The actions of a Hudi timeline, by the name used in instant file names: Hudi 0.x's, and {@link
 * #CLUSTERING}, which only Hudi 1.x names.
 */
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
  SCHEMA_COMMIT("schemacommit"),

  /**
   * Hudi 1.x only: a clustering's pending states ({@code T.clustering.requested}, {@code
   * T.clustering.inflight}), which Hudi 0.x wrote as a replacecommit's; it completes as {@code
   * replacecommit}. Hudi 0.15 does not know the name, so {@link #fromName} does not give it.
   */
  CLUSTERING("clustering");

  private static final Map<String, Action> BY_NAME =
      Arrays.stream(values())
          .filter(a -> a != CLUSTERING)
          .collect(Collectors.toUnmodifiableMap(a -> a.name, Function.identity()));

  private static final Map<String, Action> BY_HUDI_1_NAME =
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

  /** An action of a Hudi 0.x timeline (what Hudi 0.15 knows: not {@link #CLUSTERING}). */
  public static Optional<Action> fromName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** An action of a Hudi 1.x timeline: Hudi 0.x's and {@link #CLUSTERING}. */
  public static Optional<Action> fromHudi1Name(String name) {
    return Optional.ofNullable(BY_HUDI_1_NAME.get(name));
  }

  /**
   * The action whose completed file ends this one: a compaction completes as a commit and a log
   * compaction as a deltacommit, a clustering (Hudi 1.x) as a replacecommit. All state files of one
   * instant share (time, comparable action).
   */
  public Action comparable() {
    return switch (this) {
      case COMPACTION -> COMMIT;
      case LOG_COMPACTION -> DELTA_COMMIT;
      case CLUSTERING -> REPLACE_COMMIT;
      default -> this;
    };
  }

  /** Actions whose pending instants block the archival of later commits (the write timeline). */
  public boolean isWriteAction() {
    return switch (this) {
      case COMMIT, DELTA_COMMIT, REPLACE_COMMIT, COMPACTION, LOG_COMPACTION, CLUSTERING -> true;
      default -> false;
    };
  }

  @Override
  public String toString() {
    return name;
  }
}
