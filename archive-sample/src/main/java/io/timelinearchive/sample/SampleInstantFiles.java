package io.timelinearchive.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.timelinearchive.format.ArchiveSchemas;
import io.timelinearchive.format.AvroInstantFiles;
import io.timelinearchive.timeline.Action;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;

/**
 * What the instant files of a sample table hold: commit metadata (JSON) with write stats, and the
 * Avro plans and metadata of compactions, cleans, rollbacks and savepoints, shaped as Hudi 0.15
 * writes them. Values are drawn from one random source, so a seed gives the same table again.
 */
final class SampleInstantFiles {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> PARTITIONS = List.of("2026/11/01", "2026/11/02", "2026/11/03");

  private final Random random;

  SampleInstantFiles(Random random) {
    this.random = random;
  }

  Map<String, Object> inflightMetadata() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("partitionToWriteStats", Map.of());
    m.put("compacted", false);
    m.put("extraMetadata", Map.of());
    m.put("operationType", "UPSERT");
    return m;
  }

  Map<String, Object> commitMetadata(String time, List<String> previous, boolean compacted) {
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

  GenericRecord compactionPlan(List<String> completedWrites) {
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

  GenericRecord cleanerPlan(String retain, String lastCompleted) {
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

  GenericRecord cleanMetadata(String time, String retain, List<String> completedWrites) {
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

  GenericRecord rollbackPlan(String failed, Action action) {
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

  GenericRecord rollbackMetadata(String time, String failed, Action action) {
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

  GenericRecord savepointMetadata(String savepointedCommit) {
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

  static byte[] json(Map<String, Object> value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] avro(GenericRecord record) {
    return AvroInstantFiles.serialize(record);
  }
}
