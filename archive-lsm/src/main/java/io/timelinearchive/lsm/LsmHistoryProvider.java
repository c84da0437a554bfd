package io.timelinearchive.lsm;

import io.timelinearchive.archive.TimelineHistory;
import io.timelinearchive.archive.TimelineHistoryProvider;
import io.timelinearchive.timeline.TimelineFormat;

/** Archives Hudi 1.x tables into their LSM history; found by archive-core's service loader. */
public final class LsmHistoryProvider implements TimelineHistoryProvider {
  @Override
  public TimelineFormat format() {
    return TimelineFormat.HUDI_1_LSM;
  }

  @Override
  public TimelineHistory open(Context context) {
    return new LsmTimelineHistory(context, LsmSettings.fromConfig(context.config()));
  }
}
