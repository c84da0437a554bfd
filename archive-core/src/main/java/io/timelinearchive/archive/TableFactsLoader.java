package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.format.ArchiveSchemas;
import io.timelinearchive.format.AvroInstantFiles;
import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gathers what selection needs to know beyond the instant names, so that selection itself stays a
 * pure function: the table's type and zone, the metadata table's latest compaction, and what the
 * latest clean retains. Each costs a request only where it matters.
 */
final class TableFactsLoader {
  private static final Logger LOG = LoggerFactory.getLogger(TableFactsLoader.class);

  private TableFactsLoader() {}

  /** The zone the table writes instant times in. */
  static ZoneId timelineZone(HoodieTable table) {
    return TableFacts.fromProperties(table.properties(), ZoneId.systemDefault(), Optional.empty())
        .timelineZone();
  }

  static TableFacts load(MetaStorage storage, HoodieTable table, ActiveTimeline active)
      throws IOException {
    requireNonNull(storage, "storage is null");
    Optional<TableFacts.MetadataTable> metadataTable = Optional.empty();
    if (TableFacts.hasMetadataTable(table.properties())) {
      // One more listing, only for tables with a metadata table: Hudi never archives past its
      // latest compaction.
      metadataTable =
          Optional.of(
              TableFacts.MetadataTable.fromTimeline(
                  ActiveTimeline.load(
                          storage,
                          table
                              .metaFolder()
                              .resolve(HoodieTable.METADATA_FOLDER)
                              .resolve(HoodieTable.META_FOLDER))
                      .timeline()));
    }
    TableFacts facts =
        TableFacts.fromProperties(table.properties(), ZoneId.systemDefault(), metadataTable);
    if (table.isMetadataTable()) {
      // One more listing, only for a metadata table: its data table's timeline bounds it.
      facts =
          facts.withDataTable(
              TableFacts.DataTable.fromTimeline(
                  ActiveTimeline.load(
                          storage, table.dataTableBase().resolve(HoodieTable.META_FOLDER))
                      .timeline()));
    }
    Optional<TableFacts.LatestClean> latestClean = latestClean(storage, active);
    return latestClean.isPresent() ? facts.withLatestClean(latestClean.get()) : facts;
  }

  /**
   * What the latest completed clean retains, read from its plan (one more read), only where a
   * replacecommit makes it matter: Hudi keeps replacecommits the cleaner has not passed yet.
   */
  private static Optional<TableFacts.LatestClean> latestClean(
      MetaStorage storage, ActiveTimeline active) throws IOException {
    if (active.files().stream().noneMatch(f -> f.instant().action() == Action.REPLACE_COMMIT)) {
      return Optional.empty();
    }
    Optional<TimelineFile> clean =
        active.files().stream()
            .filter(f -> f.instant().action() == Action.CLEAN && f.instant().isCompleted())
            .max(Comparator.comparing(TimelineFile::instant));
    if (clean.isEmpty()) {
      return Optional.empty();
    }
    String time = clean.get().instant().time();
    TimelineInstant requested = new TimelineInstant(time, Action.CLEAN, State.REQUESTED);
    Optional<TimelineFile> plan =
        active.files().stream().filter(f -> f.instant().equals(requested)).findFirst();
    if (plan.isEmpty()) {
      return Optional.empty();
    }
    try {
      GenericRecord cleanerPlan =
          AvroInstantFiles.read(
              requested, ArchiveSchemas.CLEANER_PLAN, storage.read(plan.get().file().location()));
      Object retain = cleanerPlan.get("earliestInstantToRetain");
      Object timestamp = retain instanceof GenericRecord r ? r.get("timestamp") : null;
      return Optional.of(
          new TableFacts.LatestClean(time, Optional.ofNullable(timestamp).map(Object::toString)));
    } catch (InstantConversionException e) {
      // Selection then keeps every replacecommit and says so; the file itself is left alone.
      LOG.warn("cannot read the cleaner plan {}: {}", plan.get().file().location(), e.reason());
      return Optional.empty();
    }
  }
}
