package io.timelinearchive.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.timelinearchive.archive.ArchiveResult;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/** The child JVM of {@link MemoryFigure}: archives the table it is given, once. */
public final class MemoryChild {
  private MemoryChild() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    AtomicLong liveHeapPeak = watchLiveHeap();
    long start = System.nanoTime();
    ArchiveResult result = ArchivalFigure.archiveOurs(table);
    long elapsed = System.nanoTime() - start;
    System.out.println(
        MemoryFigure.RESULT_PREFIX
            + String.format(
                Locale.ROOT,
                "archived %,d instant files in %s, %,d left; heap in use after a collection at"
                    + " most %,d MiB of max %,d MiB",
                result.archived().size(),
                Timing.millis(elapsed),
                result.activeAfter(),
                liveHeapPeak.get() / (1024 * 1024),
                Runtime.getRuntime().maxMemory() / (1024 * 1024)));
  }

  /**
   * The most heap found in use right after any collection, a bound on what the run kept reachable.
   * The pools' own peaks are taken at different moments and, summed, can exceed the maximum heap.
   */
  private static AtomicLong watchLiveHeap() {
    AtomicLong peak = new AtomicLong();
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) collector)
          .addNotificationListener(
              (notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                    notification.getType())) {
                  long used = 0;
                  for (MemoryUsage pool :
                      GarbageCollectionNotificationInfo.from(
                              (CompositeData) notification.getUserData())
                          .getGcInfo()
                          .getMemoryUsageAfterGc()
                          .values()) {
                    used += pool.getUsed();
                  }
                  peak.accumulateAndGet(used, Math::max);
                }
              },
              null,
              null);
    }
    return peak;
  }
}
