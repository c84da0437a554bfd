package io.timelinearchive.bench;

import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.InstantSelector;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P3: {@link InstantSelector#plan} alone, on timelines of 10⁴ to 10⁶ instants held in memory, after
 * warm-up runs; the median of several runs per size, and the growth from one size to the next
 * against n log n.
 */
final class SelectionFigure {
  private static final Logger LOG = LoggerFactory.getLogger(SelectionFigure.class);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
  private static final java.time.Instant NOW = java.time.Instant.parse("2030-01-01T00:00:00Z");

  private final int repetitions;
  private final int warmUpInstants;

  /**
   * @param warmUpInstants how many instants the warm-up calls at each size select among in all
   */
  SelectionFigure(int repetitions, int warmUpInstants) {
    this.repetitions = repetitions;
    this.warmUpInstants = warmUpInstants;
  }

  /**
   * A timeline of {@code instants} instants as Hudi leaves it with layout 1: commits (requested,
   * inflight, completed), a clean (the same three) after every second commit, a rollback among
   * every 150 instants, and a pending commit at the end.
   */
  static Timeline timeline(int instants) {
    List<TimelineInstant> files = new ArrayList<>(instants * 3 + 3);
    LocalDateTime clock = LocalDateTime.of(2020, 1, 1, 0, 0);
    for (int i = 0; i < instants - 1; i++) {
      clock = clock.plusSeconds(7);
      String t = TIME.format(clock);
      Action action = i % 150 == 149 ? Action.ROLLBACK : i % 3 == 2 ? Action.CLEAN : Action.COMMIT;
      files.add(new TimelineInstant(t, action, State.REQUESTED));
      files.add(new TimelineInstant(t, action, State.INFLIGHT));
      files.add(new TimelineInstant(t, action, State.COMPLETED));
    }
    String pending = TIME.format(clock.plusSeconds(7));
    files.add(new TimelineInstant(pending, Action.COMMIT, State.REQUESTED));
    files.add(new TimelineInstant(pending, Action.COMMIT, State.INFLIGHT));
    return Timeline.of(files);
  }

  static ArchivalPlan select(Timeline timeline) {
    return InstantSelector.plan(
        timeline,
        TableFacts.of(TableFacts.TableType.COPY_ON_WRITE),
        ArchivalPolicy.fromConfig(ArchivalFigure.SETTINGS),
        NOW);
  }

  List<Row> measure(int[] sizes) throws Exception {
    List<Row> rows = new ArrayList<>();
    long previous = -1;
    int previousSize = 0;
    for (int size : sizes) {
      Timeline timeline = timeline(size);
      // warm-up: enough calls for the JIT to compile the selection at this size
      int warmUps = Math.max(3, warmUpInstants / size);
      ArchivalPlan plan = null;
      for (int i = 0; i < warmUps; i++) {
        plan = select(timeline);
      }
      List<Long> times = new ArrayList<>();
      List<Long> cpuTimes = new ArrayList<>();
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      for (int rep = 0; rep < repetitions; rep++) {
        Timing.settle();
        long cpu = threads.getCurrentThreadCpuTime();
        times.add(Timing.nanos(() -> select(timeline)));
        cpuTimes.add(threads.getCurrentThreadCpuTime() - cpu);
      }
      long wall = Timing.median(times);
      long median = Timing.median(cpuTimes);
      String growth = "—";
      double growthValue = Double.NaN;
      String note =
          "thread CPU time (the machine is shared: wall time waits for the CPU), median of "
              + repetitions
              + " after "
              + warmUps
              + " warm-up calls; wall time median "
              + Timing.millis(wall)
              + " "
              + times.stream().map(Timing::millis).toList();
      if (previous > 0) {
        growthValue = (double) median / previous;
        double nLogN = (size * Math.log(size)) / ((double) previousSize * Math.log(previousSize));
        growth = Timing.ratio(growthValue);
        note +=
            String.format(
                Locale.ROOT,
                "; time grew %.2f× for %d× the instants (n log n predicts %.2f×, n %d×)",
                growthValue,
                size / previousSize,
                nLogN,
                size / previousSize);
      }
      boolean under = median < 1_000_000_000L;
      LOG.info("P3 {} instants: {} ns, {} selected", size, median, plan.instants().size());
      rows.add(
          new Row(
              "P3 selection",
              Timing.count(size)
                  + " instants ("
                  + Timing.count(timeline.size())
                  + " files, "
                  + Timing.count(plan.instants().size())
                  + " selected)",
              Timing.millis(median) + " CPU (" + Timing.millis(wall) + " wall)",
              previous > 0 ? "previous size: " + Timing.millis(previous) : "—",
              growth,
              size >= 1_000_000 ? "< 1 s at 10⁶ (CPU), ~n log n" : "~n log n",
              size >= 1_000_000 ? Boolean.valueOf(under) : null,
              note,
              growthValue));
      previous = median;
      previousSize = size;
    }
    return rows;
  }
}
