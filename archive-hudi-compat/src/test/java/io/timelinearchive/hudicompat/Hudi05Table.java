package io.timelinearchive.hudicompat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tables as Hudi 0.5.x wrote them, written by Hudi 0.5.3's own timeline classes ({@link
 * Hudi053#writeTable}) in timeline layout 0 (one file per instant, renamed on each transition, the
 * lone {@code T.inflight} of a commit in progress) or 1 (a file per state). Instant times have 14
 * digits, as 0.5 made them; they are fixed, so nothing depends on the clock.
 */
final class Hudi05Table {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Hudi05Table() {}

  /** The {@code i}-th minute of a fixed day, as a 14-digit instant time. */
  static String t(int i) {
    return String.format("20200601%02d%02d00", 10 + i / 60, i % 60);
  }

  /**
   * Copy-on-write: 16 commits, one failed write rolled back, 5 cleans, a savepoint on the 15th
   * commit; then a clean in progress ({@code T.clean.inflight} in layout 0) and, newest, a commit
   * in progress (the lone {@code T.inflight}).
   */
  static List<String> copyOnWrite() {
    List<String> steps = new ArrayList<>();
    int i = 0;
    int commits = 0;
    String lastCommit = null;
    String beforeLast = null;
    while (commits < 16) {
      i++;
      if (i == 5) {
        steps.add("pending-commit " + t(i));
        steps.add("rollback " + t(++i) + " " + t(i - 1));
        continue;
      }
      if (i % 4 == 3 && beforeLast != null) {
        steps.add("clean " + t(i) + " " + beforeLast);
        continue;
      }
      steps.add("commit " + t(i));
      beforeLast = lastCommit;
      lastCommit = t(i);
      commits++;
      if (commits == 15) {
        steps.add("savepoint " + t(i));
      }
    }
    steps.add("pending-clean " + t(++i) + " " + beforeLast);
    steps.add("pending-commit " + t(++i));
    return steps;
  }

  /**
   * Merge-on-read: 14 delta commits, a compaction after every third (plans in {@code .aux/} too,
   * completed as commits), cleans, a savepoint on a late delta commit; newest a compaction only
   * planned and a delta commit in progress.
   */
  static List<String> mergeOnRead() {
    List<String> steps = new ArrayList<>();
    int i = 0;
    String lastWrite = null;
    String beforeLast = null;
    for (int d = 1; d <= 14; d++) {
      steps.add("deltacommit " + t(++i));
      beforeLast = lastWrite;
      lastWrite = t(i);
      if (d == 13) {
        steps.add("savepoint " + t(i));
      }
      if (d % 3 == 0) {
        steps.add("compaction " + t(++i));
      }
      if (d % 4 == 0) {
        steps.add("clean " + t(++i) + " " + beforeLast);
      }
    }
    steps.add("requested-compaction " + t(++i));
    steps.add("pending-deltacommit " + t(++i));
    return steps;
  }

  static List<String> steps(String tableType) {
    return tableType.equals("COPY_ON_WRITE") ? copyOnWrite() : mergeOnRead();
  }

  /** Writes the table of {@code tableType} at {@code base} in {@code layout}. */
  static Path write(Path base, String tableType, int layout) {
    Hudi053.writeTable(base, tableType, layout, steps(tableType));
    return base;
  }

  /** Avro's text of a record (0.5.3's Avro 1.8 or ours) as a JSON tree, maps unordered. */
  static JsonNode json(String avroText) {
    try {
      return JSON.readTree(avroText);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
