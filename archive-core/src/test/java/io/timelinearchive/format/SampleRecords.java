package io.timelinearchive.format;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;

/** Realistic records of the Avro instant files, built with {@link ArchiveSchemas}. */
public final class SampleRecords {
  private SampleRecords() {}

  public static GenericRecord cleanerPlan(String earliestToRetain) {
    Schema schema = ArchiveSchemas.CLEANER_PLAN;
    Schema instant = nonNull(schema.getField("earliestInstantToRetain").schema());
    Schema fileInfo =
        nonNull(schema.getField("filePathsToBeDeletedPerPartition").schema())
            .getValueType()
            .getElementType();
    GenericRecord file =
        new GenericRecordBuilder(fileInfo)
            .set("filePath", "file:/t/p1/f1_1-0-1_" + earliestToRetain + ".parquet")
            .set("isBootstrapBaseFile", false)
            .build();
    return new GenericRecordBuilder(schema)
        .set(
            "earliestInstantToRetain",
            new GenericRecordBuilder(instant)
                .set("timestamp", earliestToRetain)
                .set("action", "commit")
                .set("state", "COMPLETED")
                .build())
        .set("lastCompletedCommitTimestamp", earliestToRetain)
        .set("policy", "KEEP_LATEST_COMMITS")
        .set("filesToBeDeletedPerPartition", new LinkedHashMap<>())
        .set("version", 2)
        .set("filePathsToBeDeletedPerPartition", Map.of("p1", List.of(file)))
        .set("partitionsToBeDeleted", List.of())
        .build();
  }

  public static GenericRecord cleanMetadata(String startTime) {
    Schema schema = ArchiveSchemas.CLEAN_METADATA;
    Schema partition = schema.getField("partitionMetadata").schema().getValueType();
    GenericRecord p1 =
        new GenericRecordBuilder(partition)
            .set("partitionPath", "p1")
            .set("policy", "KEEP_LATEST_COMMITS")
            .set("deletePathPatterns", List.of("f1_1-0-1_1.parquet"))
            .set("successDeleteFiles", List.of("f1_1-0-1_1.parquet"))
            .set("failedDeleteFiles", List.of())
            .set("isPartitionDeleted", false)
            .build();
    return new GenericRecordBuilder(schema)
        .set("startCleanTime", startTime)
        .set("timeTakenInMillis", 42L)
        .set("totalFilesDeleted", 1)
        .set("earliestCommitToRetain", "20240101000000000")
        .set("lastCompletedCommitTimestamp", "20240101000000000")
        .set("partitionMetadata", Map.of("p1", p1))
        .set("version", 2)
        .set("bootstrapPartitionMetadata", Map.of())
        .build();
  }

  public static GenericRecord rollbackMetadata(String startTime, String rolledBack) {
    Schema schema = ArchiveSchemas.ROLLBACK_METADATA;
    Schema partition = schema.getField("partitionMetadata").schema().getValueType();
    Schema info = schema.getField("instantsRollback").schema().getElementType();
    return new GenericRecordBuilder(schema)
        .set("startRollbackTime", startTime)
        .set("timeTakenInMillis", 7L)
        .set("totalFilesDeleted", 0)
        .set("commitsRollback", List.of(rolledBack))
        .set(
            "partitionMetadata",
            Map.of(
                "p1",
                new GenericRecordBuilder(partition)
                    .set("partitionPath", "p1")
                    .set("successDeleteFiles", List.of())
                    .set("failedDeleteFiles", List.of())
                    .set("rollbackLogFiles", Map.of(".f1_1.log.1", 10L))
                    .build()))
        .set(
            "instantsRollback",
            List.of(
                new GenericRecordBuilder(info)
                    .set("commitTime", rolledBack)
                    .set("action", "commit")
                    .build()))
        .build();
  }

  public static GenericRecord rollbackPlan(String rolledBack) {
    Schema schema = ArchiveSchemas.ROLLBACK_PLAN;
    Schema info = nonNull(schema.getField("instantToRollback").schema());
    Schema request = nonNull(schema.getField("RollbackRequests").schema()).getElementType();
    return new GenericRecordBuilder(schema)
        .set(
            "instantToRollback",
            new GenericRecordBuilder(info)
                .set("commitTime", rolledBack)
                .set("action", "commit")
                .build())
        .set(
            "RollbackRequests",
            List.of(
                new GenericRecordBuilder(request)
                    .set("partitionPath", "p1")
                    .set("fileId", "f1")
                    .set("latestBaseInstant", rolledBack)
                    .set("filesToBeDeleted", List.of("p1/f1_1-0-1_" + rolledBack + ".parquet"))
                    .build()))
        .build();
  }

  public static GenericRecord savepointMetadata(String by) {
    Schema schema = ArchiveSchemas.SAVEPOINT_METADATA;
    Schema partition = schema.getField("partitionMetadata").schema().getValueType();
    return new GenericRecordBuilder(schema)
        .set("savepointedBy", by)
        .set("savepointedAt", 1_700_000_000L)
        .set("comments", "before the migration")
        .set(
            "partitionMetadata",
            Map.of(
                "p1",
                new GenericRecordBuilder(partition)
                    .set("partitionPath", "p1")
                    .set("savepointDataFile", List.of("f1_1-0-1_1.parquet"))
                    .build()))
        .build();
  }

  public static GenericRecord compactionPlan(String baseInstant) {
    Schema schema = ArchiveSchemas.COMPACTION_PLAN;
    Schema operation = nonNull(schema.getField("operations").schema()).getElementType();
    return new GenericRecordBuilder(schema)
        .set(
            "operations",
            List.of(
                new GenericRecordBuilder(operation)
                    .set("baseInstantTime", baseInstant)
                    .set("deltaFilePaths", List.of(".f1_" + baseInstant + ".log.1_0-1-1"))
                    .set("dataFilePath", "f1_0-1-1_" + baseInstant + ".parquet")
                    .set("fileId", "f1")
                    .set("partitionPath", "p1")
                    .set("metrics", Map.of("TOTAL_LOG_FILES", 1.0))
                    .build()))
        .set("version", 2)
        .build();
  }

  public static GenericRecord requestedReplaceMetadata() {
    Schema schema = ArchiveSchemas.REQUESTED_REPLACE_METADATA;
    Schema plan = nonNull(schema.getField("clusteringPlan").schema());
    Schema group = nonNull(plan.getField("inputGroups").schema()).getElementType();
    Schema slice = nonNull(group.getField("slices").schema()).getElementType();
    Schema strategy = nonNull(plan.getField("strategy").schema());
    GenericRecord s =
        new GenericRecordBuilder(slice)
            .set("dataFilePath", "p1/f1_1-0-1_1.parquet")
            .set("fileId", "f1")
            .set("partitionPath", "p1")
            .build();
    return new GenericRecordBuilder(schema)
        .set("operationType", "CLUSTER")
        .set(
            "clusteringPlan",
            new GenericRecordBuilder(plan)
                .set(
                    "inputGroups",
                    List.of(
                        new GenericRecordBuilder(group)
                            .set("slices", List.of(s))
                            .set("numOutputFileGroups", 1)
                            .build()))
                .set(
                    "strategy",
                    new GenericRecordBuilder(strategy)
                        .set("strategyClassName", "SparkSizeBasedClusteringExecutionStrategy")
                        .build())
                .build())
        .build();
  }

  public static GenericRecord indexCommitMetadata() {
    Schema schema = ArchiveSchemas.INDEX_COMMIT_METADATA;
    Schema info = nonNull(schema.getField("indexPartitionInfos").schema()).getElementType();
    return new GenericRecordBuilder(schema)
        .set("operationType", "BUILD")
        .set(
            "indexPartitionInfos",
            List.of(
                new GenericRecordBuilder(info)
                    .set("metadataPartitionPath", "column_stats")
                    .set("indexUptoInstant", "20240101000000000")
                    .build()))
        .build();
  }

  static Schema nonNull(Schema union) {
    for (Schema s : union.getTypes()) {
      if (s.getType() != Schema.Type.NULL) {
        return s;
      }
    }
    throw new IllegalArgumentException("no non-null branch in " + union);
  }

  /**
   * An entry record as {@link #plain} values without its compressed instant-file bytes, which the
   * encoder adds to the records it writes: their restoration is checked by inflating them.
   */
  public static Object plainEntry(GenericRecord entry) {
    @SuppressWarnings("unchecked")
    Map<String, Object> fields = (Map<String, Object>) plain(entry);
    fields.remove(EntryFields.DEFLATED_CONTENT);
    return fields;
  }

  /**
   * A record and its nested values as plain Java values (field maps, sorted maps, lists, strings,
   * byte lists), so that records compare equal whatever their map classes and string types.
   */
  public static Object plain(Object value) {
    if (value instanceof GenericData.Record r) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("$type", r.getSchema().getFullName());
      for (Schema.Field f : r.getSchema().getFields()) {
        fields.put(f.name(), plain(r.get(f.pos())));
      }
      return fields;
    }
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> sorted = new java.util.TreeMap<>();
      m.forEach((k, v) -> sorted.put(k.toString(), plain(v)));
      return sorted;
    }
    if (value instanceof List<?> l) {
      return l.stream().map(SampleRecords::plain).toList();
    }
    if (value instanceof CharSequence s) {
      return s.toString();
    }
    if (value instanceof java.nio.ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      return java.util.HexFormat.of().formatHex(bytes);
    }
    return value;
  }
}
