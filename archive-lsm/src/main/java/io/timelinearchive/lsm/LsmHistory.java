package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFormat;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LSM history of a Hudi 1.x table, read as Hudi 1.0 reads it: the current snapshot's manifest
 * (see {@link LsmSnapshot}), then each history file it lists, read whole with one request. Files
 * whose time range (from their names) misses the range asked for are not read. Rows are
 * de-duplicated by (requested time, action), keeping the first in the manifest's order, and sorted
 * by {@link Hudi1Instant#ORDER}. A file the manifest lists but that is gone fails the load, naming
 * it, unless a newer snapshot has replaced that manifest meanwhile (a compaction), which is then
 * read instead.
 */
public final class LsmHistory {
  private static final Logger LOG = LoggerFactory.getLogger(LsmHistory.class);
  private static final int LOAD_ATTEMPTS = 3;

  private final LsmSnapshot snapshot;
  private final List<LsmHistoryInstant> instants;
  private final List<LsmFileSummary> files;

  private LsmHistory(
      LsmSnapshot snapshot, List<LsmHistoryInstant> instants, List<LsmFileSummary> files) {
    this.snapshot = snapshot;
    this.instants = List.copyOf(instants);
    this.files = List.copyOf(files);
  }

  /**
   * Loads the history of a Hudi 1.x table.
   *
   * @param storage the table's storage
   * @param table a Hudi 1.x table (see {@link HoodieTable#inspect})
   * @param options which instants to load (by requested time), and whether with their metadata and
   *     plan bytes
   * @throws IllegalArgumentException if the table is not a Hudi 1.x one
   * @throws CorruptHistoryFileException naming the file at fault
   * @throws IOException if the storage fails
   */
  public static LsmHistory load(MetaStorage storage, HoodieTable table, ArchiveReadOptions options)
      throws IOException {
    if (table.format() != TimelineFormat.HUDI_1_LSM) {
      throw new IllegalArgumentException(table.base() + " is not a Hudi 1.x table");
    }
    return load(storage, table.historyFolder(), options);
  }

  /**
   * Loads the history in a history folder.
   *
   * @param storage the table's storage
   * @param historyFolder the folder, usually {@code .hoodie/timeline/history}
   * @param options which instants to load (by requested time), and whether with their metadata and
   *     plan bytes
   * @throws CorruptHistoryFileException naming the file at fault
   * @throws IOException if the storage fails
   */
  public static LsmHistory load(
      MetaStorage storage, StorageLocation historyFolder, ArchiveReadOptions options)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(historyFolder, "historyFolder is null");
    requireNonNull(options, "options is null");
    for (int attempt = 1; ; attempt++) {
      LsmSnapshot snapshot = LsmSnapshot.current(storage, historyFolder);
      try {
        return read(storage, snapshot, options);
      } catch (MissingFileException e) {
        OptionalInt now = LsmSnapshot.current(storage, historyFolder).version();
        if (attempt == LOAD_ATTEMPTS || now.equals(snapshot.version())) {
          throw new CorruptHistoryFileException(
              e.location,
              "it is listed by "
                  + snapshot.manifest().map(m -> m.location().toString()).orElse("the manifest")
                  + " but does not exist",
              e.getCause());
        }
        LOG.info(
            "{} vanished while reading the history; manifest {} replaced {}, reading it",
            e.location,
            now.orElse(-1),
            snapshot.version().orElse(-1));
      }
    }
  }

  private static LsmHistory read(
      MetaStorage storage, LsmSnapshot snapshot, ArchiveReadOptions options) throws IOException {
    Map<String, LsmHistoryInstant> firstOfEach = new LinkedHashMap<>();
    List<LsmFileSummary> summaries = new ArrayList<>();
    for (LsmManifest.Entry entry : snapshot.files()) {
      if (!entry.name().overlaps(options.fromTime(), options.toTime())) {
        continue;
      }
      StorageLocation location = snapshot.folder().resolve(entry.name().fileName());
      byte[] bytes;
      try {
        bytes = storage.read(location);
      } catch (NoSuchFileException e) {
        throw new MissingFileException(location, e);
      }
      List<LsmHistoryInstant> rows = LsmParquetFile.read(bytes, location, options.details());
      summaries.add(
          new LsmFileSummary(location, entry.name(), bytes.length, entry.length(), rows.size()));
      for (LsmHistoryInstant row : rows) {
        if (options.includes(row.requestedTime())) {
          firstOfEach.putIfAbsent(
              row.requestedTime() + " " + Hudi1Actions.completedAs(row.action()), row);
        }
      }
    }
    List<LsmHistoryInstant> sorted = new ArrayList<>(firstOfEach.values());
    sorted.sort(Comparator.comparing(LsmHistoryInstant::instant, Hudi1Instant.ORDER));
    return new LsmHistory(snapshot, sorted, summaries);
  }

  /** A history file the manifest lists was not found. */
  private static final class MissingFileException extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient StorageLocation location;

    MissingFileException(StorageLocation location, NoSuchFileException cause) {
      super(location.toString(), cause);
      this.location = location;
    }
  }

  /** The snapshot read. */
  public LsmSnapshot snapshot() {
    return snapshot;
  }

  /** The rows loaded, each instant once, sorted by {@link Hudi1Instant#ORDER}. */
  public List<LsmHistoryInstant> instants() {
    return instants;
  }

  /** One summary per history file read, in the manifest's order. */
  public List<LsmFileSummary> files() {
    return files;
  }

  /** The loaded rows as completed instants. */
  public List<Hudi1Instant> timeline() {
    return instants.stream().map(LsmHistoryInstant::instant).toList();
  }
}
