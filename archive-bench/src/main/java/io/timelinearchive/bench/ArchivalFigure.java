package io.timelinearchive.bench;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.sample.SampleTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P1: one archival run on the local disk, ours against Hudi 0.15's {@code HoodieTimelineArchiver},
 * on identical copies of one sample table with the same settings; both must leave the same active
 * timeline.
 */
final class ArchivalFigure {
  private static final Logger LOG = LoggerFactory.getLogger(ArchivalFigure.class);
  static final String TABLE_NAME = "sample_cow";

  /** Hudi's defaults, written out: both archivers get exactly these. */
  static final Map<String, String> SETTINGS =
      Map.of(
          "hoodie.keep.min.commits", "20",
          "hoodie.keep.max.commits", "30",
          "hoodie.commits.archival.batch", "10",
          "hoodie.cleaner.policy", "KEEP_LATEST_COMMITS",
          "hoodie.cleaner.commits.retained", "10");

  private final Path work;
  private final Templates templates;
  private Path lastHudiCopy;
  private int lastHudiCopySize;

  ArchivalFigure(Path work, Templates templates) {
    this.work = work;
    this.templates = templates;
  }

  /** One run of each archiver at a small size, so that neither is measured cold. */
  void warmUp() throws Exception {
    Path dir = work.resolve("p1-warmup");
    Path template = templates.get(1_000).dir();
    Path ours = dir.resolve("ours");
    Path hudi = dir.resolve("hudi");
    Tables.copy(template, ours);
    Tables.copy(template, hudi);
    archiveOurs(ours);
    Hudi.archive(hudi, TABLE_NAME, SETTINGS);
    Tables.delete(dir);
  }

  Row measure(int size, int repetitions) throws Exception {
    Path dir = work.resolve("p1-" + size);
    Tables.delete(dir);
    Path template = templates.get(size).dir();
    SampleTable.Written written = templates.get(size).written();
    int files = written.files().size();
    List<Long> ourTimes = new ArrayList<>();
    List<Long> hudiTimes = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    int archivedFiles = 0;
    for (int rep = 0; rep < repetitions; rep++) {
      Path ours = dir.resolve("ours-" + rep);
      Path hudi = dir.resolve("hudi-" + rep);
      Tables.copy(template, ours);
      Tables.copy(template, hudi);
      ArchiveResult[] result = new ArchiveResult[1];
      // alternate who goes first: the page cache and the other tenants of the machine favour
      // neither
      for (int turn = 0; turn < 2; turn++) {
        Timing.settle();
        if ((turn + rep) % 2 == 0) {
          ourTimes.add(Timing.nanos(() -> result[0] = archiveOurs(ours)));
        } else {
          hudiTimes.add(
              Timing.nanos(
                  () -> {
                    if (!Hudi.archive(hudi, TABLE_NAME, SETTINGS)) {
                      throw new IllegalStateException("Hudi's archiver reports failure");
                    }
                  }));
        }
      }
      archivedFiles = result[0].archived().size();
      java.util.Optional<String> diff =
          Tables.difference(Tables.activeFiles(ours), Tables.activeFiles(hudi));
      if (diff.isPresent()) {
        LOG.warn("P1 {}: {}", size, diff.get());
        if (!notes.contains(diff.get())) {
          notes.add(diff.get());
        }
      }
      if (rep < repetitions - 1) {
        Tables.delete(ours);
        Tables.delete(hudi);
      } else {
        Tables.delete(ours);
        if (lastHudiCopy != null && size > lastHudiCopySize) {
          Tables.delete(lastHudiCopy.getParent());
        }
        if (lastHudiCopy == null || size > lastHudiCopySize) {
          lastHudiCopy = hudi;
          lastHudiCopySize = size;
        }
      }
    }
    if (!dir.equals(lastHudiCopy == null ? null : lastHudiCopy.getParent())) {
      Tables.delete(dir);
    }
    long ours = Timing.median(ourTimes);
    long hudi = Timing.median(hudiTimes);
    double ratio = (double) hudi / ours;
    if (notes.isEmpty()) {
      notes.add("same active timeline left by both (" + Timing.count(files - archivedFiles) + ")");
    }
    notes.add(
        "median of "
            + repetitions
            + "; ours "
            + ourTimes.stream().map(Timing::millis).toList()
            + ", Hudi "
            + hudiTimes.stream().map(Timing::millis).toList());
    LOG.info("P1 {} files: ours {} Hudi {} ({})", files, ours, hudi, Timing.ratio(ratio));
    return new Row(
        "P1 archival, local disk, SampleTable (in process)",
        Timing.count(files) + " instant files (" + Timing.count(archivedFiles) + " archived)",
        Timing.millis(ours),
        "Hudi 0.15: " + Timing.millis(hudi),
        Timing.ratio(ratio),
        "≥ 10×",
        ratio >= 10,
        String.join("; ", notes),
        ratio);
  }

  /** A copy of the {@code size} table archived by Hudi only, for the read figure. */
  Path hudiArchivedOnly(int size) throws Exception {
    Path hudi = work.resolve("p4-" + size).resolve("hudi");
    Tables.delete(hudi.getParent());
    Tables.copy(templates.get(size).dir(), hudi);
    if (!Hudi.archive(hudi, TABLE_NAME, SETTINGS)) {
      throw new IllegalStateException("Hudi's archiver reports failure");
    }
    lastHudiCopy = hudi;
    lastHudiCopySize = size;
    return hudi;
  }

  /** A Hudi-archived copy of the largest table measured, for the read figure; null if none. */
  Path hudiArchivedTable() {
    return lastHudiCopy;
  }

  static ArchiveResult archiveOurs(Path table) throws Exception {
    try (TimelineArchiver archiver =
        TimelineArchiver.open(Tables.uri(table).toString(), SETTINGS)) {
      return archiver.archiveIfRequired();
    }
  }
}
