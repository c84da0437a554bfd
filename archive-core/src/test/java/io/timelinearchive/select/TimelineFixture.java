package io.timelinearchive.select;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.util.ArrayList;
import java.util.List;

/** Builds timelines the way Hudi writes them: every state file up to the one an instant reached. */
final class TimelineFixture {
  private final List<TimelineInstant> files = new ArrayList<>();

  static TimelineFixture timeline() {
    return new TimelineFixture();
  }

  TimelineFixture completed(Action action, String... times) {
    for (String time : times) {
      files.addAll(stateFiles(action, time, State.COMPLETED));
    }
    return this;
  }

  TimelineFixture inflight(Action action, String... times) {
    for (String time : times) {
      files.addAll(stateFiles(action, time, State.INFLIGHT));
    }
    return this;
  }

  TimelineFixture requested(Action action, String... times) {
    for (String time : times) {
      files.addAll(stateFiles(action, time, State.REQUESTED));
    }
    return this;
  }

  Timeline build() {
    return Timeline.of(files);
  }

  /** The files Hudi leaves for an instant of {@code action} that reached {@code reached}. */
  static List<TimelineInstant> stateFiles(Action action, String time, State reached) {
    List<TimelineInstant> result = new ArrayList<>();
    for (State state : State.values()) {
      if (state.compareTo(reached) > 0) {
        break;
      }
      switch (action) {
        case SAVEPOINT -> {
          // a savepoint has no requested file
          if (state != State.REQUESTED) {
            result.add(new TimelineInstant(time, action, state));
          }
        }
        case SCHEMA_COMMIT -> {
          if (state == State.COMPLETED) {
            result.add(new TimelineInstant(time, action, state));
          }
        }
        case COMPACTION, LOG_COMPACTION, CLUSTERING ->
            result.add(
                new TimelineInstant(
                    time, state == State.COMPLETED ? action.comparable() : action, state));
        default -> result.add(new TimelineInstant(time, action, state));
      }
    }
    return result;
  }
}
