package io.timelinearchive.storage;

/**
 * Calls made to a {@link MetaStorage}, by kind, as counted by the archiver around its storage.
 * Failed calls count too: they cost a request all the same.
 *
 * @param list listings of files or of folders started (a store may spend one request per page on
 *     each)
 * @param read whole-file reads
 * @param open streams opened
 * @param createExclusive conditional creates
 * @param openLog logs opened for appending
 * @param append appends to logs
 * @param deletedFiles files named in delete calls (missing ones included)
 * @param deleteCalls {@code deleteAll} calls (a store may batch one into several requests)
 */
public record RequestCounts(
    long list,
    long read,
    long open,
    long createExclusive,
    long openLog,
    long append,
    long deletedFiles,
    long deleteCalls) {
  public static final RequestCounts ZERO = new RequestCounts(0, 0, 0, 0, 0, 0, 0, 0);

  public RequestCounts {
    if (list < 0
        || read < 0
        || open < 0
        || createExclusive < 0
        || openLog < 0
        || append < 0
        || deletedFiles < 0
        || deleteCalls < 0) {
      throw new IllegalArgumentException(
          "negative request count: "
              + toString(
                  list, read, open, createExclusive, openLog, append, deletedFiles, deleteCalls));
    }
  }

  /** All calls, a {@code deleteAll} counting once whatever the number of its files. */
  public long calls() {
    return list + read + open + createExclusive + openLog + append + deleteCalls;
  }

  public RequestCounts plus(RequestCounts other) {
    return new RequestCounts(
        list + other.list,
        read + other.read,
        open + other.open,
        createExclusive + other.createExclusive,
        openLog + other.openLog,
        append + other.append,
        deletedFiles + other.deletedFiles,
        deleteCalls + other.deleteCalls);
  }

  /**
   * The calls made since {@code earlier}, a snapshot of the same counter.
   *
   * @throws IllegalArgumentException if {@code earlier} is not an earlier snapshot
   */
  public RequestCounts minus(RequestCounts earlier) {
    return new RequestCounts(
        list - earlier.list,
        read - earlier.read,
        open - earlier.open,
        createExclusive - earlier.createExclusive,
        openLog - earlier.openLog,
        append - earlier.append,
        deletedFiles - earlier.deletedFiles,
        deleteCalls - earlier.deleteCalls);
  }

  /** The counts by kind name, in declaration order; for reports and JSON. */
  public java.util.Map<String, Long> asMap() {
    java.util.Map<String, Long> map = new java.util.LinkedHashMap<>();
    map.put("list", list);
    map.put("read", read);
    map.put("open", open);
    map.put("createExclusive", createExclusive);
    map.put("openLog", openLog);
    map.put("append", append);
    map.put("deletedFiles", deletedFiles);
    map.put("deleteCalls", deleteCalls);
    return map;
  }

  @Override
  public String toString() {
    return toString(list, read, open, createExclusive, openLog, append, deletedFiles, deleteCalls);
  }

  private static String toString(
      long list,
      long read,
      long open,
      long createExclusive,
      long openLog,
      long append,
      long deletedFiles,
      long deleteCalls) {
    return "list="
        + list
        + " read="
        + read
        + " open="
        + open
        + " createExclusive="
        + createExclusive
        + " openLog="
        + openLog
        + " append="
        + append
        + " delete="
        + deletedFiles
        + " files in "
        + deleteCalls
        + " calls";
  }
}
