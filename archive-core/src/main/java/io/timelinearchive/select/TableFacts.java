package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What selection needs to know about a table beyond its instant names. The caller gathers these
 * (from {@code hoodie.properties} and the metadata table's timeline) so that selection stays a pure
 * function.
 *
 * @param tableType {@code hoodie.table.type}
 * @param timelineZone the zone instant times are written in ({@code
 *     hoodie.table.timeline.timezone}: UTC, or the writers' local zone)
 * @param metadataTable absent when the table has no metadata table
 * @param latestClean what the plan of the latest completed clean retains; needed only when the
 *     timeline has replacecommit instants and a completed clean. Without it (or when it names
 *     another clean than the timeline's latest) selection keeps every replacecommit from the first
 *     one, which is safe but may archive less than Hudi
 * @param dataTable present when the table is a metadata table ({@code <base>/.hoodie/metadata}):
 *     what its data table's timeline says about archiving it
 * @param completionTimes Hudi 1.x only: the completion time of each completed instant (by its key),
 *     which Hudi 1.x's rules compare with the metadata table's latest compaction and with the data
 *     table's latest compaction; empty for Hudi 0.x, whose rules compare instant times only. A
 *     completed instant missing here is taken to have completed at its requested time
 */
public record TableFacts(
    TableType tableType,
    ZoneId timelineZone,
    Optional<MetadataTable> metadataTable,
    Optional<LatestClean> latestClean,
    Optional<DataTable> dataTable,
    Map<InstantKey, String> completionTimes) {

  public static final String TABLE_TYPE = "hoodie.table.type";
  public static final String TIMELINE_TIMEZONE = "hoodie.table.timeline.timezone";
  public static final String METADATA_PARTITIONS = "hoodie.table.metadata.partitions";

  public enum TableType {
    COPY_ON_WRITE,
    MERGE_ON_READ
  }

  /**
   * The metadata table of a table, as far as archival cares.
   *
   * @param latestCompactionTime the time of its latest completed compaction, empty while it has
   *     none; the data table's instants at or after it are not archived, and none at all while
   *     there is none
   */
  public record MetadataTable(Optional<String> latestCompactionTime) {
    public MetadataTable {
      requireNonNull(latestCompactionTime, "latestCompactionTime is null");
    }

    public static MetadataTable notCompactedYet() {
      return new MetadataTable(Optional.empty());
    }

    public static MetadataTable compactedAt(String time) {
      return new MetadataTable(Optional.of(requireNonNull(time, "time is null")));
    }

    /**
     * Reads the latest compaction off the metadata table's own active timeline (the latest
     * completed {@code commit}), as Hudi's {@code HoodieBackedTableMetadata} does.
     */
    public static MetadataTable fromTimeline(Timeline metadataTimeline) {
      List<TimelineInstant> instants = metadataTimeline.instants();
      for (int i = instants.size() - 1; i >= 0; i--) {
        TimelineInstant instant = instants.get(i);
        if (instant.isCompleted() && instant.action() == Action.COMMIT) {
          return compactedAt(instant.time());
        }
      }
      return notCompactedYet();
    }
  }

  /**
   * The latest completed clean, as far as archival cares: replacecommits are kept until the cleaner
   * has removed the files they replaced (Hudi's {@code
   * ClusteringUtils.getOldestInstantToRetainForClustering}).
   *
   * @param time the clean's instant time
   * @param earliestInstantToRetain {@code earliestInstantToRetain.timestamp} of its {@code
   *     HoodieCleanerPlan} ({@code T.clean.requested}); empty when the plan has none, as with
   *     {@code KEEP_LATEST_FILE_VERSIONS}
   * @param savepointedTimestamps the plan's {@code extraMetadata.savepointed_timestamps}, split at
   *     commas; read by Hudi 1.x's rule only (a replacecommit between the earliest savepoint and
   *     the instant retained stays from that savepoint on)
   */
  public record LatestClean(
      String time, Optional<String> earliestInstantToRetain, List<String> savepointedTimestamps) {
    public LatestClean {
      requireNonNull(time, "time is null");
      requireNonNull(earliestInstantToRetain, "earliestInstantToRetain is null");
      savepointedTimestamps = List.copyOf(savepointedTimestamps);
    }

    /** Without savepointed timestamps, all Hudi 0.x's rule reads. */
    public LatestClean(String time, Optional<String> earliestInstantToRetain) {
      this(time, earliestInstantToRetain, List.of());
    }
  }

  /**
   * The data table of a metadata table, as far as archiving the metadata table cares (Hudi's {@code
   * TimelineUtils.getEarliestInstantForMetadataArchival}).
   *
   * @param earliestInstant the earlier of the data table's first commit, deltacommit or
   *     replacecommit (in any state) and its first pending instant of any action; the metadata
   *     table keeps everything from it on, since Hudi's rollback of that instant reads the metadata
   *     table's records of it. Empty when the data table has neither
   */
  public record DataTable(Optional<String> earliestInstant) {
    public DataTable {
      requireNonNull(earliestInstant, "earliestInstant is null");
    }

    /** Reads the earliest instant off the data table's active timeline (sorted, so one pass). */
    public static DataTable fromTimeline(Timeline dataTimeline) {
      Optional<String> commit = Optional.empty();
      Optional<String> pending = Optional.empty();
      List<TimelineInstant> files = dataTimeline.instants();
      // the state files of one instant are adjacent: an instant is pending unless one is completed
      for (int i = 0; i < files.size() && (commit.isEmpty() || pending.isEmpty()); ) {
        InstantKey key = files.get(i).key();
        boolean completed = false;
        int j = i;
        for (; j < files.size() && files.get(j).key().equals(key); j++) {
          completed |= files.get(j).isCompleted();
        }
        Action action = files.get(j - 1).action();
        if (commit.isEmpty()
            && (action == Action.COMMIT
                || action == Action.DELTA_COMMIT
                || action == Action.REPLACE_COMMIT
                || action == Action.CLUSTERING)) {
          commit = Optional.of(key.time());
        }
        if (pending.isEmpty() && !completed) {
          pending = Optional.of(key.time());
        }
        i = j;
      }
      if (commit.isPresent() && pending.isPresent()) {
        return new DataTable(
            Optional.of(commit.get().compareTo(pending.get()) <= 0 ? commit.get() : pending.get()));
      }
      return new DataTable(commit.isPresent() ? commit : pending);
    }
  }

  public TableFacts {
    requireNonNull(tableType, "tableType is null");
    requireNonNull(timelineZone, "timelineZone is null");
    requireNonNull(metadataTable, "metadataTable is null");
    requireNonNull(latestClean, "latestClean is null");
    requireNonNull(dataTable, "dataTable is null");
    completionTimes = Map.copyOf(completionTimes);
  }

  /** The facts of a Hudi 0.x table: no completion times. */
  public TableFacts(
      TableType tableType,
      ZoneId timelineZone,
      Optional<MetadataTable> metadataTable,
      Optional<LatestClean> latestClean,
      Optional<DataTable> dataTable) {
    this(tableType, timelineZone, metadataTable, latestClean, dataTable, Map.of());
  }

  /** Without facts about the latest clean, of a data table. */
  public TableFacts(
      TableType tableType, ZoneId timelineZone, Optional<MetadataTable> metadataTable) {
    this(tableType, timelineZone, metadataTable, Optional.empty(), Optional.empty());
  }

  /** A table of the given type with UTC instant times and no metadata table. */
  public static TableFacts of(TableType tableType) {
    return new TableFacts(tableType, ZoneOffset.UTC, Optional.empty());
  }

  public TableFacts withMetadataTable(MetadataTable metadataTable) {
    return new TableFacts(
        tableType,
        timelineZone,
        Optional.of(metadataTable),
        latestClean,
        dataTable,
        completionTimes);
  }

  public TableFacts withLatestClean(LatestClean latestClean) {
    return new TableFacts(
        tableType,
        timelineZone,
        metadataTable,
        Optional.of(latestClean),
        dataTable,
        completionTimes);
  }

  /** The facts of a metadata table whose data table's timeline says {@code dataTable}. */
  public TableFacts withDataTable(DataTable dataTable) {
    return new TableFacts(
        tableType,
        timelineZone,
        metadataTable,
        latestClean,
        Optional.of(dataTable),
        completionTimes);
  }

  /** The facts of a Hudi 1.x table whose completed instants completed at {@code times}. */
  public TableFacts withCompletionTimes(Map<InstantKey, String> times) {
    return new TableFacts(tableType, timelineZone, metadataTable, latestClean, dataTable, times);
  }

  /**
   * Reads the table type and the timeline's zone from {@code hoodie.properties}.
   *
   * @param localZone the zone of the writers, used when the timeline zone is {@code LOCAL} (Hudi's
   *     default)
   * @param metadataTable see {@link #hasMetadataTable} to know whether to look for one
   * @throws IllegalArgumentException naming the property when a value is not one Hudi writes
   */
  public static TableFacts fromProperties(
      Map<String, String> properties, ZoneId localZone, Optional<MetadataTable> metadataTable) {
    requireNonNull(properties, "properties is null");
    requireNonNull(localZone, "localZone is null");
    String type = properties.getOrDefault(TABLE_TYPE, TableType.COPY_ON_WRITE.name()).trim();
    TableType tableType;
    try {
      tableType = TableType.valueOf(type.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          TABLE_TYPE + "='" + type + "' is not COPY_ON_WRITE or MERGE_ON_READ", e);
    }
    String zone = properties.getOrDefault(TIMELINE_TIMEZONE, "LOCAL").trim();
    ZoneId timelineZone;
    if (zone.equalsIgnoreCase("LOCAL")) {
      timelineZone = localZone;
    } else if (zone.equalsIgnoreCase("UTC")) {
      timelineZone = ZoneOffset.UTC;
    } else {
      throw new IllegalArgumentException(TIMELINE_TIMEZONE + "='" + zone + "' is not LOCAL or UTC");
    }
    return new TableFacts(tableType, timelineZone, metadataTable);
  }

  /**
   * Whether Hudi treats the table as having a metadata table: its {@code files} partition is listed
   * in {@value #METADATA_PARTITIONS}.
   */
  public static boolean hasMetadataTable(Map<String, String> properties) {
    String partitions = properties.getOrDefault(METADATA_PARTITIONS, "");
    for (String partition : partitions.split(",")) {
      if (partition.trim().equals("files")) {
        return true;
      }
    }
    return false;
  }
}
