package io.timelinearchive.bench;

import io.timelinearchive.archive.ArchiveResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.Locale;

/** The child JVM of {@link MemoryFigure}: archives the table it is given, once. */
public final class MemoryChild {
  private MemoryChild() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    long start = System.nanoTime();
    ArchiveResult result = ArchivalFigure.archiveOurs(table);
    long elapsed = System.nanoTime() - start;
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.println(
        MemoryFigure.RESULT_PREFIX
            + String.format(
                Locale.ROOT,
                "archived %,d instant files in %s, %,d left; heap pools' peak use %,d MiB of"
                    + " max %,d MiB",
                result.archived().size(),
                Timing.millis(elapsed),
                result.activeAfter(),
                peak / (1024 * 1024),
                Runtime.getRuntime().maxMemory() / (1024 * 1024)));
  }
}
