package io.timelinearchive.bench;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P4: loading an archive written by Hudi 0.15 itself (neutral ground: Hudi's own bytes), with our
 * {@link ArchivedTimeline} and with Hudi's {@code HoodieArchivedTimeline}, metadata only and with
 * details.
 */
final class ReadFigure {
  private static final Logger LOG = LoggerFactory.getLogger(ReadFigure.class);

  private final int repetitions;

  ReadFigure(int repetitions) {
    this.repetitions = repetitions;
  }

  List<Row> measure(Path table) throws Exception {
    StorageLocation base = Tables.uri(table);
    StorageLocation archive =
        base.resolve(HoodieTable.META_FOLDER).resolve(HoodieTable.DEFAULT_ARCHIVE_FOLDER);
    long archiveFiles = Tables.countFiles(table.resolve(".hoodie/archived"));
    // warm both readers once
    int entries = ours(archive, ArchiveReadOptions.metadataOnly());
    int hudiEntries = Hudi.readMetadata(table);
    ours(archive, ArchiveReadOptions.all());
    Hudi.readWithDetails(table);
    List<Row> rows = new ArrayList<>();
    rows.add(
        row(
            "metadata only",
            entries,
            hudiEntries,
            archiveFiles,
            () -> ours(archive, ArchiveReadOptions.metadataOnly()),
            () -> Hudi.readMetadata(table),
            "ours: ArchiveReadOptions.metadataOnly(); Hudi: new HoodieArchivedTimeline(metaClient)"));
    rows.add(
        row(
            "with details",
            entries,
            hudiEntries,
            archiveFiles,
            () -> ours(archive, ArchiveReadOptions.all()),
            () -> Hudi.readWithDetails(table),
            "ours: ArchiveReadOptions.all() (every entry whole, raw bytes too); Hudi: new"
                + " HoodieArchivedTimeline(metaClient, \"0\") (details of completed instants)"));
    return rows;
  }

  private Row row(
      String what,
      int entries,
      int hudiEntries,
      long archiveFiles,
      Timing.Task ours,
      Timing.Task hudi,
      String how)
      throws Exception {
    List<Long> ourTimes = new ArrayList<>();
    List<Long> hudiTimes = new ArrayList<>();
    for (int rep = 0; rep < repetitions; rep++) {
      for (int turn = 0; turn < 2; turn++) {
        Timing.settle();
        if ((turn + rep) % 2 == 0) {
          ourTimes.add(Timing.nanos(ours));
        } else {
          hudiTimes.add(Timing.nanos(hudi));
        }
      }
    }
    long o = Timing.median(ourTimes);
    long h = Timing.median(hudiTimes);
    double ratio = (double) h / o;
    LOG.info("P4 {}: ours {} Hudi {} ({})", what, o, h, Timing.ratio(ratio));
    return new Row(
        "P4 archive read, " + what,
        Timing.count(entries) + " archived entries in " + archiveFiles + " file(s) written by Hudi",
        Timing.millis(o),
        "Hudi 0.15: " + Timing.millis(h) + " (" + Timing.count(hudiEntries) + " instants)",
        Timing.ratio(ratio),
        "≥ 2×",
        ratio >= 2,
        how
            + "; median of "
            + repetitions
            + ", ours "
            + ourTimes.stream().map(Timing::millis).toList()
            + ", Hudi "
            + hudiTimes.stream().map(Timing::millis).toList(),
        ratio);
  }

  static int ours(StorageLocation archive, ArchiveReadOptions options) throws Exception {
    try (MetaStorage storage = MetaStorages.open(archive, Map.of())) {
      return ArchivedTimeline.load(storage, archive, options).instants().size();
    }
  }
}
