package io.timelinearchive.archive;

import io.timelinearchive.timeline.TimelineFormat;
import io.timelinearchive.timeline.UnsupportedTableException;
import java.util.ServiceLoader;

/** The {@link TimelineHistory} of a table, by its timeline format. */
final class TimelineHistories {
  private TimelineHistories() {}

  /**
   * @throws UnsupportedTableException naming the table when no provider on the class path archives
   *     its format
   */
  static TimelineHistory open(TimelineHistoryProvider.Context context)
      throws UnsupportedTableException {
    TimelineFormat format = context.table().format();
    if (format == TimelineFormat.HUDI_0) {
      return new LogBlockHistory(context);
    }
    for (TimelineHistoryProvider provider :
        ServiceLoader.load(
            TimelineHistoryProvider.class, TimelineHistories.class.getClassLoader())) {
      if (provider.format() == format) {
        return provider.open(context);
      }
    }
    throw new UnsupportedTableException(
        context.table().base()
            + " is a Hudi 1.x table (table version 8), archived by archive-lsm, which is not on"
            + " this class path (the command-line jars timeline-archive.jar and"
            + " timeline-archive-hdfs.jar hold it); nothing was changed");
  }
}
