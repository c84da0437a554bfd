package io.timelinearchive.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.timelinearchive.format.ArchiveSchemas;
import io.timelinearchive.format.AvroInstantFiles;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes a realistic Hudi 0.x table timeline: commit metadata JSON with write stats, Avro cleaner
 * plans and clean metadata, compaction plans, a rollback, a savepoint, and a pending compaction at
 * the end, laid out as Hudi lays them out. Deterministic for a given spec. Used by the demo, the
 * tests and the benchmarks, on any storage.
 */
public final class SampleTable {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> PARTITIONS = List.of("2026/11/01", "2026/11/02", "2026/11/03");

  /**
   * What to write.
   *
   * @param writeCommits number of write commits (deltacommits for merge-on-read, else commits)
   * @param mergeOnRead merge-on-read (deltacommits and compactions) or copy-on-write (commits)
   * @param compactEvery a compaction after this many deltacommits (merge-on-read only; 0 = never)
   * @param cleanEvery a clean after this many write commits (0 = never)
   * @param savepointAt the savepoint follows this write commit (0 = no savepoint)
   * @param rollbackAt a rollback of a failed write follows this write commit (0 = none)
   * @param pendingCompaction end with a requested compaction that has not run yet
   * @param start the first instant time
   * @param seed for the random parts of the contents
   */
  public record Spec(
      int writeCommits,
      boolean mergeOnRead,
      int compactEvery,
      int cleanEvery,
      int savepointAt,
      int rollbackAt,
      boolean pendingCompaction,
      LocalDateTime start,
      long seed) {
    public Spec {
      requireNonNull(start, "start is null");
      if (writeCommits < 1) {
        throw new IllegalArgumentException("writeCommits must be at least 1");
      }
    }

    /** The demo's table: about 400 instant files on a merge-on-read table. */
    public static Spec demo() {
      return new Spec(60, true, 5, 1, 40, 25, true, LocalDateTime.of(2026, 11, 1, 8, 0), 42);
    }

    /** A table of about {@code instantFiles} files without savepoint or pending barrier. */
    public static Spec ofSize(int instantFiles, long seed) {
      int commits = Math.max(1, instantFiles / 5);
      return new Spec(commits, false, 0, 2, 0, 0, false, LocalDateTime.of(2026, 1, 1, 0, 0), seed);
    }
  }

  /** What was written: every instant file, by name. */
  public record Written(StorageLocation base, SortedMap<String, TimelineInstant> files) {
    public Map<String, Integer> instantsByAction() {
      Map<String, Integer> counts = new TreeMap<>();
      files.values().stream()
          .map(TimelineInstant::key)
          .distinct()
          .forEach(k -> counts.merge(k.action().actionName(), 1, Integer::sum));
      return counts;
    }
  }

  private final MetaStorage storage;
  private final StorageLocation meta;
  private final Spec spec;
  private final Random random;
  private final SortedMap<String, TimelineInstant> written = new TreeMap<>();
  private LocalDateTime clock;

  private SampleTable(MetaStorage storage, StorageLocation base, Spec spec) {
    this.storage = storage;
    this.meta = base.resolve(HoodieTable.META_FOLDER);
    this.spec = spec;
    this.random = new Random(spec.seed());
    this.clock = spec.start();
  }

  /**
   * Writes {@code hoodie.properties} and the timeline below {@code base}.
   *
   * @throws java.nio.file.FileAlreadyExistsException if a file to write exists already
   */
  public static Written write(MetaStorage storage, StorageLocation base, Spec spec)
      throws IOException {
    SampleTable table = new SampleTable(storage, base, spec);
    table.writeAll();
    return new Written(base, table.written);
  }

  private void writeAll() throws IOException {
    String name = "sample_" + (spec.mergeOnRead() ? "mor" : "cow");
    String properties =
        "hoodie.table.name="
            + name
            + "\nhoodie.table.type="
            + (spec.mergeOnRead() ? "MERGE_ON_READ" : "COPY_ON_WRITE")
            + "\nhoodie.table.version=6\nhoodie.timeline.layout.version=1"
            + "\nhoodie.archivelog.folder=archived\nhoodie.table.partition.fields=dt\n";
    storage.createExclusive(meta.resolve(HoodieTable.PROPERTIES_FILE), properties.getBytes(UTF_8));

    List<String> completedWrites = new ArrayList<>();
    int sinceCompaction = 0;
    for (int n = 1; n <= spec.writeCommits(); n++) {
      String t = next();
      Action action = spec.mergeOnRead() ? Action.DELTA_COMMIT : Action.COMMIT;
      put(new TimelineInstant(t, action, State.REQUESTED), new byte[0]);
      put(new TimelineInstant(t, action, State.INFLIGHT), json(inflightMetadata()));
      put(
          new TimelineInstant(t, action, State.COMPLETED),
          json(commitMetadata(t, completedWrites, false)));
      completedWrites.add(t);
      sinceCompaction++;

      if (spec.mergeOnRead() && spec.compactEvery() > 0 && sinceCompaction == spec.compactEvery()) {
        String c = next();
        put(
            new TimelineInstant(c, Action.COMPACTION, State.REQUESTED),
            avro(compactionPlan(completedWrites)));
        put(new TimelineInstant(c, Action.COMPACTION, State.INFLIGHT), new byte[0]);
        put(
            new TimelineInstant(c, Action.COMMIT, State.COMPLETED),
            json(commitMetadata(c, completedWrites, true)));
        completedWrites.add(c);
        sinceCompaction = 0;
      }
      if (spec.cleanEvery() > 0 && n % spec.cleanEvery() == 0 && completedWrites.size() > 2) {
        String k = next();
        String retain = completedWrites.get(Math.max(0, completedWrites.size() - 10));
        byte[] plan = avro(cleanerPlan(retain, completedWrites.get(completedWrites.size() - 1)));
        put(new TimelineInstant(k, Action.CLEAN, State.REQUESTED), plan);
        put(new TimelineInstant(k, Action.CLEAN, State.INFLIGHT), plan);
        put(
            new TimelineInstant(k, Action.CLEAN, State.COMPLETED),
            avro(cleanMetadata(k, retain, completedWrites)));
      }
      if (n == spec.rollbackAt()) {
        String failed = next();
        String r = next();
        put(
            new TimelineInstant(r, Action.ROLLBACK, State.REQUESTED),
            avro(rollbackPlan(failed, action)));
        put(new TimelineInstant(r, Action.ROLLBACK, State.INFLIGHT), new byte[0]);
        put(
            new TimelineInstant(r, Action.ROLLBACK, State.COMPLETED),
            avro(rollbackMetadata(r, failed, action)));
      }
      if (n == spec.savepointAt()) {
        // Hudi gives a savepoint the time of the commit it keeps.
        put(new TimelineInstant(t, Action.SAVEPOINT, State.INFLIGHT), new byte[0]);
        put(new TimelineInstant(t, Action.SAVEPOINT, State.COMPLETED), avro(savepointMetadata(t)));
      }
    }
    if (spec.pendingCompaction()) {
      String c = next();
      put(
          new TimelineInstant(c, Action.COMPACTION, State.REQUESTED),
          avro(compactionPlan(completedWrites)));
    }
  }

  private String next() {
    clock = clock.plusSeconds(30 + random.nextInt(90)).plusNanos(random.nextInt(1000) * 1_000_000L);
    return TIME.format(clock);
  }

  private void put(TimelineInstant instant, byte[] content) throws IOException {
    String name = instant.fileName();
    storage.createExclusive(meta.resolve(name), content);
    written.put(name, instant);
  }

  private Map<String, Object> inflightMetadata() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("partitionToWriteStats", Map.of());
    m.put("compacted", false);
    m.put("extraMetadata", Map.of());
    m.put("operationType", "UPSERT");
    return m;
  }

  private Map<String, Object> commitMetadata(
      String time, List<String> previous, boolean compacted) {
    Map<String, Object> stats = new LinkedHashMap<>();
    for (String partition : PARTITIONS) {
      List<Map<String, Object>> files = new ArrayList<>();
      int n = 1 + random.nextInt(2);
      for (int i = 0; i < n; i++) {
        String fileId = new UUID(random.nextLong(), random.nextLong()) + "-0";
        long writes = 100 + random.nextInt(5000);
        long bytes = writes * (80 + random.nextInt(40));
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("fileId", fileId);
        s.put(
            "path", partition + "/" + fileId + "_0-" + i + "-" + (i + 3) + "_" + time + ".parquet");
        s.put("cdcStats", null);
        s.put("prevCommit", previous.isEmpty() ? "null" : previous.get(previous.size() - 1));
        s.put("numWrites", writes);
        s.put("numDeletes", random.nextInt(5));
        s.put("numUpdateWrites", compacted ? writes : random.nextInt((int) writes));
        s.put("numInserts", compacted ? 0 : writes / 2);
        s.put("totalWriteBytes", bytes);
        s.put("totalWriteErrors", 0);
        s.put("tempPath", null);
        s.put("partitionPath", partition);
        s.put("totalLogRecords", compacted ? writes : 0);
        s.put("totalLogFilesCompacted", compacted ? 2 : 0);
        s.put("totalLogSizeCompacted", compacted ? bytes / 3 : 0);
        s.put("totalUpdatedRecordsCompacted", compacted ? writes / 3 : 0);
        s.put("totalLogBlocks", compacted ? 4 : 0);
        s.put("totalCorruptLogBlock", 0);
        s.put("totalRollbackBlocks", 0);
        s.put("fileSizeInBytes", bytes);
        s.put("minEventTime", null);
        s.put("maxEventTime", null);
        s.put(
            "runtimeStats",
            Map.of(
                "totalScanTime", 0, "totalUpsertTime", random.nextInt(900), "totalCreateTime", 0));
        files.add(s);
      }
      stats.put(partition, files);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("partitionToWriteStats", stats);
    m.put("compacted", compacted);
    m.put(
        "extraMetadata",
        Map.of(
            "schema",
            "{\"type\":\"record\",\"name\":\"sample_record\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"}]}"));
    m.put("operationType", compacted ? null : "UPSERT");
    return m;
  }

  private GenericRecord compactionPlan(List<String> completedWrites) {
    String base = completedWrites.isEmpty() ? "00000000000000000" : completedWrites.get(0);
    List<GenericRecord> operations = new ArrayList<>();
    for (String partition : PARTITIONS) {
      String fileId = new UUID(random.nextLong(), random.nextLong()) + "-0";
      operations.add(
          AvroValues.record(
              AvroValues.nested(ArchiveSchemas.COMPACTION_PLAN, "operations"),
              Map.of(
                  "baseInstantTime",
                  base,
                  "deltaFilePaths",
                  List.of(partition + "/." + fileId + "_" + base + ".log.1_0-1-0"),
                  "dataFilePath",
                  partition + "/" + fileId + "_0-1-0_" + base + ".parquet",
                  "fileId",
                  fileId,
                  "partitionPath",
                  partition,
                  "metrics",
                  Map.of("TOTAL_LOG_FILES", 1.0, "TOTAL_IO_MB", 12.5))));
    }
    return AvroValues.record(
        ArchiveSchemas.COMPACTION_PLAN, Map.of("operations", operations, "version", 2));
  }

  private GenericRecord cleanerPlan(String retain, String lastCompleted) {
    Map<String, Object> fileInfos = new LinkedHashMap<>();
    for (String partition : PARTITIONS) {
      fileInfos.put(
          partition,
          List.of(
              AvroValues.record(
                  AvroValues.nested(
                      ArchiveSchemas.CLEANER_PLAN, "filePathsToBeDeletedPerPartition"),
                  Map.of(
                      "filePath",
                      partition
                          + "/"
                          + new UUID(random.nextLong(), random.nextLong())
                          + "-0_0-1-0_"
                          + retain
                          + ".parquet",
                      "isBootstrapBaseFile",
                      false))));
    }
    return AvroValues.record(
        ArchiveSchemas.CLEANER_PLAN,
        Map.of(
            "earliestInstantToRetain",
            AvroValues.record(
                AvroValues.nested(ArchiveSchemas.CLEANER_PLAN, "earliestInstantToRetain"),
                Map.of("timestamp", retain, "action", "commit", "state", "COMPLETED")),
            "lastCompletedCommitTimestamp",
            lastCompleted,
            "policy",
            "KEEP_LATEST_COMMITS",
            "version",
            2,
            "filePathsToBeDeletedPerPartition",
            fileInfos));
  }

  private GenericRecord cleanMetadata(String time, String retain, List<String> completedWrites) {
    Map<String, Object> partitions = new LinkedHashMap<>();
    for (String partition : PARTITIONS) {
      String file =
          partition
              + "/"
              + new UUID(random.nextLong(), random.nextLong())
              + "-0_0-1-0_"
              + retain
              + ".parquet";
      partitions.put(
          partition,
          AvroValues.record(
              AvroValues.nested(ArchiveSchemas.CLEAN_METADATA, "partitionMetadata"),
              Map.of(
                  "partitionPath", partition,
                  "policy", "KEEP_LATEST_COMMITS",
                  "deletePathPatterns", List.of(file),
                  "successDeleteFiles", List.of(file),
                  "failedDeleteFiles", List.of())));
    }
    return AvroValues.record(
        ArchiveSchemas.CLEAN_METADATA,
        Map.of(
            "startCleanTime",
            time,
            "timeTakenInMillis",
            200L + random.nextInt(2000),
            "totalFilesDeleted",
            PARTITIONS.size(),
            "earliestCommitToRetain",
            retain,
            "lastCompletedCommitTimestamp",
            completedWrites.get(completedWrites.size() - 1),
            "partitionMetadata",
            partitions,
            "version",
            2));
  }

  private GenericRecord rollbackPlan(String failed, Action action) {
    return AvroValues.record(
        ArchiveSchemas.ROLLBACK_PLAN,
        Map.of(
            "instantToRollback",
            AvroValues.record(
                AvroValues.nested(ArchiveSchemas.ROLLBACK_PLAN, "instantToRollback"),
                Map.of("commitTime", failed, "action", action.actionName())),
            "version",
            1));
  }

  private GenericRecord rollbackMetadata(String time, String failed, Action action) {
    Map<String, Object> partitions = new LinkedHashMap<>();
    for (String partition : PARTITIONS) {
      partitions.put(
          partition,
          AvroValues.record(
              AvroValues.nested(ArchiveSchemas.ROLLBACK_METADATA, "partitionMetadata"),
              Map.of(
                  "partitionPath", partition,
                  "successDeleteFiles",
                      List.of(
                          partition
                              + "/"
                              + new UUID(random.nextLong(), random.nextLong())
                              + "-0_0-1-0_"
                              + failed
                              + ".parquet"),
                  "failedDeleteFiles", List.of())));
    }
    return AvroValues.record(
        ArchiveSchemas.ROLLBACK_METADATA,
        Map.of(
            "startRollbackTime",
            time,
            "timeTakenInMillis",
            150L,
            "totalFilesDeleted",
            PARTITIONS.size(),
            "commitsRollback",
            List.of(failed),
            "partitionMetadata",
            partitions,
            "version",
            1,
            "instantsRollback",
            List.of(
                AvroValues.record(
                    AvroValues.nested(ArchiveSchemas.ROLLBACK_PLAN, "instantToRollback"),
                    Map.of("commitTime", failed, "action", action.actionName())))));
  }

  private GenericRecord savepointMetadata(String savepointedCommit) {
    Map<String, Object> partitions = new LinkedHashMap<>();
    for (String partition : PARTITIONS) {
      partitions.put(
          partition,
          AvroValues.record(
              AvroValues.nested(ArchiveSchemas.SAVEPOINT_METADATA, "partitionMetadata"),
              Map.of(
                  "partitionPath",
                  partition,
                  "savepointDataFile",
                  List.of(
                      partition
                          + "/"
                          + new UUID(random.nextLong(), random.nextLong())
                          + "-0_0-1-0_"
                          + savepointedCommit
                          + ".parquet"))));
    }
    return AvroValues.record(
        ArchiveSchemas.SAVEPOINT_METADATA,
        Map.of(
            "savepointedBy",
            "timeline-archive-demo",
            "savepointedAt",
            1_700_000_000L,
            "comments",
            "before the November backfill",
            "partitionMetadata",
            partitions,
            "version",
            1));
  }

  private static byte[] json(Map<String, Object> value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] avro(GenericRecord record) {
    return AvroInstantFiles.serialize(record);
  }
}
