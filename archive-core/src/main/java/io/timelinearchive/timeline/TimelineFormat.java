package io.timelinearchive.timeline;

/** How a table keeps its timeline: the layout its Hudi version writes, active and archived. */
public enum TimelineFormat {
  /**
   * Hudi 0.x (table versions 0 to 6, timeline layouts 0 and 1): instant files directly in {@code
   * .hoodie/}, the archive in log files {@code .commits_.archive.N} of {@code
   * HoodieArchivedMetaEntry} records.
   */
  HUDI_0,

  /**
   * Hudi 1.x (table version 8, timeline layout 2): instant files in {@code .hoodie/timeline/}, a
   * completed one named with its completion time, and the history an LSM tree of Parquet files of
   * {@code HoodieLSMTimelineInstant} rows in {@code .hoodie/timeline/history/}.
   */
  HUDI_1_LSM;

  /** The table version Hudi 1.0 writes, the only one of Hudi 1.x read here (7 was a beta's). */
  static final int HUDI_1_TABLE_VERSION = 8;

  /** The timeline layout of Hudi 1.x. */
  static final int HUDI_1_LAYOUT_VERSION = 2;

  static TimelineFormat of(int tableVersion, int layoutVersion) {
    return tableVersion == HUDI_1_TABLE_VERSION && layoutVersion == HUDI_1_LAYOUT_VERSION
        ? HUDI_1_LSM
        : HUDI_0;
  }
}
