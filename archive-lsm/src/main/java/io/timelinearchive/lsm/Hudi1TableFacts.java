package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineFormat;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What selection needs to know about a Hudi 1.x table beyond its instant names, read as Hudi 1.0.1
 * reads it: the table's type and zone, the completion time of each completed instant, what the
 * latest clean retains, the metadata table's latest compaction and, for a metadata table, its data
 * table's earliest instant. Each costs a request only where it matters.
 */
public final class Hudi1TableFacts {
  private static final Logger LOG = LoggerFactory.getLogger(Hudi1TableFacts.class);

  /** The cleaner plan's extra metadata key Hudi 1.x lists the savepointed instants under. */
  static final String SAVEPOINTED_TIMESTAMPS = "savepointed_timestamps";

  private Hudi1TableFacts() {}

  /**
   * @param table a Hudi 1.x table (see {@link HoodieTable#inspect})
   * @param active its active timeline
   * @throws IllegalArgumentException if the table is not a Hudi 1.x one, or a property is not one
   *     Hudi writes
   * @throws IOException if the storage fails
   */
  public static TableFacts load(MetaStorage storage, HoodieTable table, Hudi1ActiveTimeline active)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(active, "active is null");
    if (table.format() != TimelineFormat.HUDI_1_LSM) {
      throw new IllegalArgumentException(table.base() + " is not a Hudi 1.x table");
    }
    Optional<TableFacts.MetadataTable> metadataTable = Optional.empty();
    if (TableFacts.hasMetadataTable(table.properties())) {
      metadataTable = Optional.of(metadataTable(storage, table));
    }
    TableFacts facts =
        TableFacts.fromProperties(table.properties(), ZoneId.systemDefault(), metadataTable)
            .withCompletionTimes(active.completionTimes());
    if (table.isMetadataTable()) {
      // Hudi 1.0.1's TimelineUtils.getEarliestInstantForMetadataArchival on the data table's
      // active timeline
      HoodieTable dataTable = HoodieTable.inspect(storage, table.dataTableBase());
      facts =
          facts.withDataTable(
              TableFacts.DataTable.fromTimeline(
                  Hudi1ActiveTimeline.load(storage, dataTable).asActiveTimeline().timeline()));
    }
    Optional<TableFacts.LatestClean> latestClean = latestClean(storage, active);
    return latestClean.isPresent() ? facts.withLatestClean(latestClean.get()) : facts;
  }

  /**
   * Hudi 1.0.1's {@code HoodieBackedTableMetadata#getLatestCompactionTime}: the requested time of
   * the metadata table's latest completed commit or replacecommit (by requested time); none while
   * it has none, or has no timeline at all.
   */
  static TableFacts.MetadataTable metadataTable(MetaStorage storage, HoodieTable table)
      throws IOException {
    HoodieTable metadata;
    try {
      metadata =
          HoodieTable.inspect(storage, table.metaFolder().resolve(HoodieTable.METADATA_FOLDER));
    } catch (NoSuchFileException e) {
      // Hudi's reader then has no metadata table to ask and archives nothing; so do we
      return TableFacts.MetadataTable.notCompactedYet();
    }
    if (metadata.format() != TimelineFormat.HUDI_1_LSM) {
      throw new IllegalArgumentException(
          metadata.base() + " is not a Hudi 1.x metadata table, though its data table is");
    }
    List<Hudi1TimelineFile> files = Hudi1ActiveTimeline.load(storage, metadata).files();
    for (int i = files.size() - 1; i >= 0; i--) {
      Hudi1Instant instant = files.get(i).instant();
      if (instant.isCompleted()
          && (instant.action().equals(Hudi1Actions.COMMIT)
              || instant.action().equals(Hudi1Actions.REPLACE_COMMIT))) {
        return TableFacts.MetadataTable.compactedAt(instant.requestedTime());
      }
    }
    return TableFacts.MetadataTable.notCompactedYet();
  }

  /**
   * What the latest completed clean retains, read from its plan ({@code T.clean.requested}, one
   * more read), only where a replacecommit or clustering makes it matter.
   */
  private static Optional<TableFacts.LatestClean> latestClean(
      MetaStorage storage, Hudi1ActiveTimeline active) throws IOException {
    List<Hudi1TimelineFile> files = active.files();
    if (files.stream()
        .map(f -> f.instant().action())
        .noneMatch(
            a -> a.equals(Hudi1Actions.REPLACE_COMMIT) || a.equals(Hudi1Actions.CLUSTERING))) {
      return Optional.empty();
    }
    Optional<String> time = Optional.empty();
    for (int i = files.size() - 1; i >= 0 && time.isEmpty(); i--) {
      Hudi1Instant instant = files.get(i).instant();
      if (instant.isCompleted() && instant.action().equals(Hudi1Actions.CLEAN)) {
        time = Optional.of(instant.requestedTime());
      }
    }
    if (time.isEmpty()) {
      return Optional.empty();
    }
    String cleanTime = time.get();
    Optional<Hudi1TimelineFile> plan =
        files.stream()
            .filter(
                f ->
                    f.instant().requestedTime().equals(cleanTime)
                        && f.instant().action().equals(Hudi1Actions.CLEAN)
                        && f.instant().state() == State.REQUESTED)
            .findFirst();
    if (plan.isEmpty()) {
      return Optional.empty();
    }
    Optional<GenericRecord> record;
    try {
      record = Hudi1InstantContent.record(Hudi1ActiveTimeline.read(storage, plan.get()));
    } catch (NoSuchFileException e) {
      return Optional.empty(); // archived since the listing: selection keeps every replacecommit
    }
    if (record.isEmpty()) {
      // Selection then keeps every replacecommit and says so; the file itself is left alone.
      LOG.warn("cannot read the cleaner plan {}", plan.get().file().location());
      return Optional.empty();
    }
    Object retain = field(record.get(), "earliestInstantToRetain");
    Object timestamp = retain instanceof GenericRecord r ? field(r, "timestamp") : null;
    Object extra = field(record.get(), "extraMetadata");
    List<String> savepointed = List.of();
    if (extra instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getKey().toString().equals(SAVEPOINTED_TIMESTAMPS) && e.getValue() != null) {
          savepointed = Arrays.asList(e.getValue().toString().split(","));
        }
      }
    }
    return Optional.of(
        new TableFacts.LatestClean(
            cleanTime, Optional.ofNullable(timestamp).map(Object::toString), savepointed));
  }

  private static Object field(GenericRecord record, String name) {
    return record.getSchema().getField(name) == null ? null : record.get(name);
  }
}
