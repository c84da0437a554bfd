package io.timelinearchive.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Wall-clock measurements: median of repetitions, formatted. */
final class Timing {
  private Timing() {}

  @FunctionalInterface
  interface Task {
    void run() throws Exception;
  }

  static long nanos(Task task) throws Exception {
    long start = System.nanoTime();
    task.run();
    return System.nanoTime() - start;
  }

  static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static String millis(long nanos) {
    double ms = nanos / 1e6;
    if (ms >= 100) {
      return String.format(Locale.ROOT, "%,.0f ms", ms);
    }
    return String.format(Locale.ROOT, "%.1f ms", ms);
  }

  static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2f×", r);
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** Runs the collector between measurements so one run's garbage does not bill the next. */
  static void settle() {
    System.gc();
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
