package io.timelinearchive.lsm;

import java.util.Map;
import java.util.Set;

/**
 * The actions of a Hudi 1.x timeline, by the names its instant files and history rows use. They are
 * Hudi 0.x's and one more: {@code clustering}, whose pending states Hudi 0.x wrote as a
 * replacecommit's.
 */
public final class Hudi1Actions {
  public static final String COMMIT = "commit";
  public static final String DELTA_COMMIT = "deltacommit";
  public static final String REPLACE_COMMIT = "replacecommit";
  public static final String CLUSTERING = "clustering";
  public static final String COMPACTION = "compaction";
  public static final String LOG_COMPACTION = "logcompaction";
  public static final String CLEAN = "clean";
  public static final String ROLLBACK = "rollback";
  public static final String SAVEPOINT = "savepoint";
  public static final String RESTORE = "restore";
  public static final String INDEXING = "indexing";
  public static final String SCHEMA_COMMIT = "schemacommit";

  /** Every action a Hudi 1.0 timeline names. */
  public static final Set<String> ALL =
      Set.of(
          COMMIT,
          DELTA_COMMIT,
          REPLACE_COMMIT,
          CLUSTERING,
          COMPACTION,
          LOG_COMPACTION,
          CLEAN,
          ROLLBACK,
          SAVEPOINT,
          RESTORE,
          INDEXING,
          SCHEMA_COMMIT);

  /** Actions whose completed file names another action. */
  private static final Map<String, String> COMPLETED_AS =
      Map.of(COMPACTION, COMMIT, LOG_COMPACTION, DELTA_COMMIT, CLUSTERING, REPLACE_COMMIT);

  private Hudi1Actions() {}

  /**
   * The action an instant's completed file is named with: a compaction completes as a commit, a log
   * compaction as a deltacommit, a clustering as a replacecommit, any other as itself. All states
   * of one instant share (requested time, this).
   */
  public static String completedAs(String action) {
    return COMPLETED_AS.getOrDefault(action, action);
  }

  /** Actions that never complete under their own name. */
  static boolean completesAsAnother(String action) {
    return COMPLETED_AS.containsKey(action);
  }
}
