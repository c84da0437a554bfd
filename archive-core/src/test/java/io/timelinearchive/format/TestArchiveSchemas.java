package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Facts of docs/HUDI-FORMAT.md §5. (That the schema JSON equals Hudi 0.15's generated classes was
 * checked against hudi-common 0.15.0 itself; archive-it is the place for that with Hudi's jars.)
 */
class TestArchiveSchemas {
  @Test
  void entryHasHudisSixteenFieldsThenTheRawContent() {
    Schema entry = ArchiveSchemas.ARCHIVED_META_ENTRY;
    assertThat(entry.getFullName()).isEqualTo("org.apache.hudi.avro.model.HoodieArchivedMetaEntry");
    assertThat(entry.getFields())
        .extracting(Schema.Field::name)
        .containsExactly(
            "hoodieCommitMetadata",
            "hoodieCleanMetadata",
            "hoodieCompactionMetadata",
            "hoodieRollbackMetadata",
            "hoodieSavePointMetadata",
            "commitTime",
            "actionType",
            "version",
            "hoodieCompactionPlan",
            "hoodieCleanerPlan",
            "actionState",
            "hoodieReplaceCommitMetadata",
            "hoodieRequestedReplaceMetadata",
            "HoodieInflightReplaceMetadata",
            "hoodieIndexCommitMetadata",
            "stateTransitionTime",
            "timelineArchiveDeflatedContent");
    assertThat(ArchiveSchemas.HUDI_ARCHIVED_META_ENTRY.getFields()).hasSize(16);

    Schema raw = entry.getField(EntryFields.DEFLATED_CONTENT).schema();
    assertThat(raw.getTypes())
        .extracting(Schema::getType)
        .containsExactly(Schema.Type.NULL, Schema.Type.BYTES);
    assertThat(entry.getField(EntryFields.DEFLATED_CONTENT).defaultVal())
        .isEqualTo(JsonProperties.NULL_VALUE);

    Schema version = entry.getField("version").schema();
    assertThat(version.getTypes())
        .extracting(Schema::getType)
        .containsExactly(Schema.Type.INT, Schema.Type.NULL);
    assertThat(entry.getField("version").defaultVal()).isEqualTo(1);

    for (EntryDetail detail : EntryDetail.values()) {
      Schema union = entry.getField(detail.fieldName()).schema();
      assertThat(union.getTypes()).hasSize(2);
      assertThat(union.getTypes().get(0).getType()).isEqualTo(Schema.Type.NULL);
      assertThat(union.getTypes().get(1)).isEqualTo(detail.defaultSchema());
      assertThat(entry.getField(detail.fieldName()).defaultVal())
          .isEqualTo(JsonProperties.NULL_VALUE);
    }
  }

  @Test
  void writeStatFieldsAreInHudisOrder() {
    assertThat(ArchiveSchemas.WRITE_STAT.getFields())
        .extracting(Schema.Field::name)
        .containsExactly(
            "fileId",
            "path",
            "prevCommit",
            "numWrites",
            "numDeletes",
            "numUpdateWrites",
            "totalWriteBytes",
            "totalWriteErrors",
            "partitionPath",
            "totalLogRecords",
            "totalLogFiles",
            "totalUpdatedRecordsCompacted",
            "numInserts",
            "totalLogBlocks",
            "totalCorruptLogBlock",
            "totalRollbackBlocks",
            "fileSizeInBytes");
    assertThat(ArchiveSchemas.COMMIT_METADATA.getFields())
        .extracting(Schema.Field::name)
        .containsExactly("partitionToWriteStats", "extraMetadata", "version", "operationType");
    assertThat(ArchiveSchemas.REPLACE_COMMIT_METADATA.getFields())
        .extracting(Schema.Field::name)
        .containsExactly(
            "partitionToWriteStats",
            "extraMetadata",
            "version",
            "operationType",
            "partitionToReplaceFileIds");
  }

  @Test
  void everyStringAndMapSaysJavaString() {
    List<Schema> all = List.of(ArchiveSchemas.ARCHIVED_META_ENTRY, ArchiveSchemas.ROLLBACK_PLAN);
    List<String> missing = new ArrayList<>();
    Set<Schema> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Schema s : all) {
      walk(s, seen, missing);
    }
    assertThat(missing).isEmpty();
  }

  @Test
  void everyRecordIsInHudisNamespace() {
    Set<Schema> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<String> names = new ArrayList<>();
    walkRecords(ArchiveSchemas.ARCHIVED_META_ENTRY, seen, names);
    walkRecords(ArchiveSchemas.ROLLBACK_PLAN, seen, names);
    assertThat(names).allMatch(n -> n.startsWith("org.apache.hudi.avro.model."));
    assertThat(names)
        .contains(
            "org.apache.hudi.avro.model.HoodieWriteStat",
            "org.apache.hudi.avro.model.HoodieCleanPartitionMetadata",
            "org.apache.hudi.avro.model.HoodieActionInstant",
            "org.apache.hudi.avro.model.HoodieCleanFileInfo",
            "org.apache.hudi.avro.model.HoodieInstantInfo",
            "org.apache.hudi.avro.model.HoodieRollbackRequest",
            "org.apache.hudi.avro.model.HoodieCompactionOperation",
            "org.apache.hudi.avro.model.HoodieClusteringGroup",
            "org.apache.hudi.avro.model.HoodieIndexPartitionInfo");
  }

  private static void walk(Schema s, Set<Schema> seen, List<String> missing) {
    if (!seen.add(s)) {
      return;
    }
    switch (s.getType()) {
      case STRING, MAP -> {
        if (!"String".equals(s.getProp("avro.java.string"))) {
          missing.add(s.toString());
        }
        if (s.getType() == Schema.Type.MAP) {
          walk(s.getValueType(), seen, missing);
        }
      }
      case RECORD -> s.getFields().forEach(f -> walk(f.schema(), seen, missing));
      case ARRAY -> walk(s.getElementType(), seen, missing);
      case UNION -> s.getTypes().forEach(t -> walk(t, seen, missing));
      default -> {}
    }
  }

  private static void walkRecords(Schema s, Set<Schema> seen, List<String> names) {
    if (!seen.add(s)) {
      return;
    }
    switch (s.getType()) {
      case RECORD -> {
        names.add(s.getFullName());
        s.getFields().forEach(f -> walkRecords(f.schema(), seen, names));
      }
      case MAP -> walkRecords(s.getValueType(), seen, names);
      case ARRAY -> walkRecords(s.getElementType(), seen, names);
      case UNION -> s.getTypes().forEach(t -> walkRecords(t, seen, names));
      default -> {}
    }
  }
}
