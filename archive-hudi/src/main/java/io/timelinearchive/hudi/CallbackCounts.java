package io.timelinearchive.hudi;

/**
 * What the commit callback did for one table in this JVM, since it first saw the table.
 *
 * @param runs archiver runs that finished without error
 * @param failures archiver runs that failed (and settings it could not read), each counted once
 * @param skippedWhileRunning commits that started no run because one was still running on the table
 * @param skippedHudiArchives commits that started no run because Hudi's own archiver is on ({@code
 *     hoodie.archive.automatic} is not false)
 * @param instantsArchived instants archived by the successful runs
 * @param lastFailure the reason of the latest failure, empty if none
 */
public record CallbackCounts(
    long runs,
    long failures,
    long skippedWhileRunning,
    long skippedHudiArchives,
    long instantsArchived,
    String lastFailure) {
  static final CallbackCounts NONE = new CallbackCounts(0, 0, 0, 0, 0, "");

  /**
   * What the callback did for the table at {@code basePath} in this JVM so far (all zero if it has
   * not seen the table); callable without Hudi's classes, unlike the callback itself.
   */
  public static CallbackCounts forTable(String basePath) {
    return TableArchivals.shared().counts(basePath);
  }
}
