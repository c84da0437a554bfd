package io.timelinearchive.bench;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.timeline.HoodieTable;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One of our operations alone, repeated, for a profiler to watch (e.g. {@code java
 * -XX:StartFlightRecording=filename=p.jfr -cp archive-bench.jar io.timelinearchive.bench.Profile
 * archive 10000}): {@code archive N} archives copies of an N-file table, {@code read N} and {@code
 * read-details N} read the archive our archiver made of it, {@code select N} selects among N
 * instants.
 */
public final class Profile {
  private Profile() {}

  public static void main(String[] args) throws Exception {
    String what = args[0];
    int size = Integer.parseInt(args[1]);
    int repetitions = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path work = Files.createTempDirectory("timeline-archive-profile-");
    try {
      Templates templates = new Templates(work);
      switch (what) {
        case "archive" -> {
          for (int i = 0; i < repetitions; i++) {
            Path copy = work.resolve("copy-" + i);
            Tables.copy(templates.get(size).dir(), copy);
            long nanos = System.nanoTime();
            ArchiveResult result = ArchivalFigure.archiveOurs(copy);
            System.out.println(
                Timing.millis(System.nanoTime() - nanos) + " phases " + result.phases());
            Tables.delete(copy);
          }
        }
        case "read", "read-details" -> {
          Path copy = work.resolve("copy");
          Tables.copy(templates.get(size).dir(), copy);
          ArchivalFigure.archiveOurs(copy);
          var archive =
              Tables.uri(copy)
                  .resolve(HoodieTable.META_FOLDER)
                  .resolve(HoodieTable.DEFAULT_ARCHIVE_FOLDER);
          ArchiveReadOptions options =
              what.equals("read") ? ArchiveReadOptions.metadataOnly() : ArchiveReadOptions.all();
          var threads = java.lang.management.ManagementFactory.getThreadMXBean();
          for (int i = 0; i < repetitions; i++) {
            long nanos = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            int n = ReadFigure.ours(archive, options);
            System.out.println(
                Timing.millis(System.nanoTime() - nanos)
                    + " wall, "
                    + Timing.millis(threads.getCurrentThreadCpuTime() - cpu)
                    + " cpu for "
                    + n);
          }
        }
        case "select" -> {
          var timeline = SelectionFigure.timeline(size);
          var threads = java.lang.management.ManagementFactory.getThreadMXBean();
          for (int i = 0; i < repetitions; i++) {
            long nanos = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            SelectionFigure.select(timeline);
            System.out.println(
                Timing.millis(System.nanoTime() - nanos)
                    + " wall, "
                    + Timing.millis(threads.getCurrentThreadCpuTime() - cpu)
                    + " cpu");
          }
        }
        default -> throw new IllegalArgumentException("archive, read, read-details or select");
      }
    } finally {
      Tables.delete(work);
    }
  }
}
