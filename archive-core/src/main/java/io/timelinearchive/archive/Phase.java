package io.timelinearchive.archive;

import java.util.Locale;

/**
 * The phases of an archival run, in the order a run enters them. The same names serve the listener
 * ({@link ArchiveListener}) and the timings of {@link ArchiveResult#phases()}.
 */
public enum Phase {
  /** Reading the table's properties, listing the archive folder and taking the lock. */
  LOCK,
  /** Listing the active timeline. */
  LIST,
  /** Finishing what an interrupted run or merge left. */
  RECOVER,
  /** Choosing the instants to archive. */
  SELECT,
  /** Reading and converting the selected instant files. */
  READ,
  /** Writing archive blocks; a large run alternates between reading and writing. */
  WRITE,
  /** Deleting the pending files of the archived instants. */
  DELETE_PENDING,
  /** Deleting their completed files, oldest first. */
  DELETE_COMPLETED,
  /** Removing old compaction plan copies from {@code .hoodie/.aux/}. */
  AUX,
  /** Merging small archive files. */
  MERGE,
  /** Deleting archive files past {@code archive.history.max-age}. */
  PURGE,
  /** Releasing the lock. */
  UNLOCK;

  /** The name in timings and JSON: {@code deletePending}. */
  public String key() {
    String[] words = name().toLowerCase(Locale.ROOT).split("_");
    StringBuilder key = new StringBuilder(words[0]);
    for (int i = 1; i < words.length; i++) {
      key.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
    }
    return key.toString();
  }
}
