package io.timelinearchive.format;

import static io.timelinearchive.format.SampleRecords.plain;
import static io.timelinearchive.format.SampleRecords.plainEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestArchiveEntryConverter {
  private static final String T = "20240102030405678";
  private static final java.time.Instant MODIFIED =
      java.time.Instant.parse("2024-01-02T03:04:06.789Z");
  private static final ArchiveEntryConverter UTC = ArchiveEntryConverter.inZone(ZoneOffset.UTC);

  static final String COMMIT_JSON =
      """
      {"partitionToWriteStats":{"p1":[{"fileId":"f1","path":"p1/f1.parquet","prevCommit":"null",
        "numWrites":5,"numDeletes":1,"numUpdateWrites":2,"numInserts":3,"totalWriteBytes":1024,
        "totalWriteErrors":0,"tempPath":null,"cdcStats":null,"partitionPath":"p1",
        "totalLogRecords":0,"totalLogFilesCompacted":0,"totalLogSizeCompacted":0,
        "totalUpdatedRecordsCompacted":0,"totalLogBlocks":0,"totalCorruptLogBlock":0,
        "totalRollbackBlocks":0,"fileSizeInBytes":2048,"minEventTime":null,"maxEventTime":null,
        "runtimeStats":{"totalScanTime":0,"totalUpsertTime":12,"totalCreateTime":0}}]},
       "compacted":false,"extraMetadata":{"schema":"{\\"type\\":\\"record\\"}"},
       "operationType":"UPSERT"}
      """;

  static final String REPLACE_JSON =
      """
      {"partitionToWriteStats":{"p1":[{"fileId":"f2","numWrites":"7"}]},
       "partitionToReplaceFileIds":{"p1":["f1"]},"compacted":false,
       "extraMetadata":{},"operationType":"CLUSTER"}
      """;

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static TimelineInstant instant(Action action, State state) {
    return new TimelineInstant(T, action, state);
  }

  static Stream<Arguments> everyStateFileOfTheTable() {
    byte[] empty = new byte[0];
    byte[] commit = utf8(COMMIT_JSON);
    byte[] compacted = utf8(COMMIT_JSON.replace("\"compacted\":false", "\"compacted\":true"));
    return Stream.of(
        Arguments.of(Action.COMMIT, State.REQUESTED, empty, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.COMMIT, State.INFLIGHT, commit, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.COMMIT, State.INFLIGHT, empty, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.COMMIT, State.COMPLETED, commit, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.COMMIT, State.COMPLETED, compacted, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.COMMIT, State.COMPLETED, empty, null),
        Arguments.of(Action.DELTA_COMMIT, State.REQUESTED, empty, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.DELTA_COMMIT, State.INFLIGHT, commit, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.DELTA_COMMIT, State.COMPLETED, commit, EntryDetail.COMMIT_METADATA),
        Arguments.of(Action.DELTA_COMMIT, State.COMPLETED, empty, null),
        Arguments.of(
            Action.REPLACE_COMMIT,
            State.REQUESTED,
            AvroInstantFiles.serialize(SampleRecords.requestedReplaceMetadata()),
            EntryDetail.REQUESTED_REPLACE_METADATA),
        Arguments.of(Action.REPLACE_COMMIT, State.REQUESTED, empty, null),
        Arguments.of(
            Action.REPLACE_COMMIT, State.INFLIGHT, commit, EntryDetail.INFLIGHT_REPLACE_METADATA),
        Arguments.of(Action.REPLACE_COMMIT, State.INFLIGHT, empty, null),
        Arguments.of(
            Action.REPLACE_COMMIT,
            State.COMPLETED,
            utf8(REPLACE_JSON),
            EntryDetail.REPLACE_COMMIT_METADATA),
        Arguments.of(
            Action.CLEAN,
            State.REQUESTED,
            AvroInstantFiles.serialize(SampleRecords.cleanerPlan("20240101000000000")),
            EntryDetail.CLEANER_PLAN),
        Arguments.of(
            Action.CLEAN,
            State.INFLIGHT,
            AvroInstantFiles.serialize(SampleRecords.cleanerPlan("20240101000000000")),
            EntryDetail.CLEANER_PLAN),
        Arguments.of(Action.CLEAN, State.INFLIGHT, empty, null),
        Arguments.of(
            Action.CLEAN,
            State.COMPLETED,
            AvroInstantFiles.serialize(SampleRecords.cleanMetadata(T)),
            EntryDetail.CLEAN_METADATA),
        Arguments.of(Action.CLEAN, State.COMPLETED, empty, null),
        Arguments.of(
            Action.ROLLBACK,
            State.REQUESTED,
            AvroInstantFiles.serialize(SampleRecords.rollbackPlan("20240101000000000")),
            null),
        Arguments.of(Action.ROLLBACK, State.INFLIGHT, empty, null),
        Arguments.of(
            Action.ROLLBACK,
            State.COMPLETED,
            AvroInstantFiles.serialize(SampleRecords.rollbackMetadata(T, "20240101000000000")),
            EntryDetail.ROLLBACK_METADATA),
        Arguments.of(Action.SAVEPOINT, State.INFLIGHT, empty, null),
        Arguments.of(
            Action.SAVEPOINT,
            State.COMPLETED,
            AvroInstantFiles.serialize(SampleRecords.savepointMetadata("admin")),
            EntryDetail.SAVEPOINT_METADATA),
        Arguments.of(
            Action.COMPACTION,
            State.REQUESTED,
            AvroInstantFiles.serialize(SampleRecords.compactionPlan("20240101000000000")),
            EntryDetail.COMPACTION_PLAN),
        Arguments.of(Action.COMPACTION, State.INFLIGHT, empty, null),
        Arguments.of(
            Action.LOG_COMPACTION,
            State.REQUESTED,
            AvroInstantFiles.serialize(SampleRecords.compactionPlan("20240101000000000")),
            EntryDetail.COMPACTION_PLAN),
        Arguments.of(Action.LOG_COMPACTION, State.INFLIGHT, empty, null),
        Arguments.of(
            Action.INDEXING,
            State.COMPLETED,
            AvroInstantFiles.serialize(SampleRecords.indexCommitMetadata()),
            EntryDetail.INDEX_COMMIT_METADATA),
        Arguments.of(Action.RESTORE, State.COMPLETED, utf8("{}"), null));
  }

  @ParameterizedTest(name = "{0} {1}, {2} bytes -> {3}")
  @MethodSource("everyStateFileOfTheTable")
  void everyStateFileConvertsAndRoundTrips(
      Action action, State state, byte[] content, EntryDetail expected) throws Exception {
    TimelineInstant instant = instant(action, state);
    ArchiveEntry entry = UTC.convert(instant, MODIFIED, content);

    GenericRecord record = entry.record();
    assertThat(record.get("commitTime")).isEqualTo(T);
    assertThat(record.get("actionType")).isEqualTo(action.actionName());
    assertThat(record.get("actionState")).isEqualTo(state.name());
    assertThat(record.get("stateTransitionTime")).isEqualTo("20240102030406789");
    assertThat(record.get("version")).isNull();
    assertThat(entry.rawContent()).hasValueSatisfying(b -> assertThat(b).isEqualTo(content));
    assertThat(entry.detail()).isEqualTo(java.util.Optional.ofNullable(expected));
    for (EntryDetail other : EntryDetail.values()) {
      if (other != expected) {
        assertThat(record.get(other.fieldName())).as(other.fieldName()).isNull();
      }
    }

    GenericRecord back = roundTrip(List.of(entry)).get(0);
    Object deflated = back.get(EntryFields.DEFLATED_CONTENT);
    back.put(EntryFields.DEFLATED_CONTENT, null);
    assertThat(plain(back)).isEqualTo(plain(record));
    assertThat(new RawContent.BlockInflater().inflate(instant, (java.nio.ByteBuffer) deflated))
        .isEqualTo(content);
  }

  @Test
  void avroDetailsAreTheRecordsOfTheFile() throws IOException {
    GenericRecord plan = SampleRecords.cleanerPlan("20240101000000000");
    ArchiveEntry entry =
        UTC.convert(
            instant(Action.CLEAN, State.REQUESTED), MODIFIED, AvroInstantFiles.serialize(plan));
    assertThat(plain(entry.record().get("hoodieCleanerPlan"))).isEqualTo(plain(plan));
    assertThat(entry.record().getSchema()).isSameAs(ArchiveSchemas.ARCHIVED_META_ENTRY);
  }

  @Test
  void jsonCommitMetadataConvertsAsHudiDoes() throws IOException {
    ArchiveEntry entry =
        UTC.convert(instant(Action.COMMIT, State.COMPLETED), MODIFIED, utf8(COMMIT_JSON));
    GenericRecord metadata = (GenericRecord) entry.record().get("hoodieCommitMetadata");

    assertThat(metadata.getSchema()).isEqualTo(ArchiveSchemas.COMMIT_METADATA);
    assertThat(metadata.get("operationType")).isEqualTo("UPSERT");
    assertThat(metadata.get("version")).isNull();
    assertThat(plain(metadata.get("extraMetadata")))
        .isEqualTo(Map.of("schema", "{\"type\":\"record\"}", "ROLLING_STAT", ""));
    @SuppressWarnings("unchecked")
    Map<String, List<GenericRecord>> stats =
        (Map<String, List<GenericRecord>>) metadata.get("partitionToWriteStats");
    GenericRecord stat = stats.get("p1").get(0);
    // JSON fields the Avro record lacks (tempPath, runtimeStats, ...) are gone.
    assertThat(stat.getSchema()).isEqualTo(ArchiveSchemas.WRITE_STAT);
    assertThat(stat.get("fileId")).isEqualTo("f1");
    assertThat(stat.get("prevCommit")).isEqualTo("null");
    assertThat(stat.get("numWrites")).isEqualTo(5L);
    assertThat(stat.get("numInserts")).isEqualTo(3L);
    assertThat(stat.get("fileSizeInBytes")).isEqualTo(2048L);
    // Hudi's Java model has no totalLogFiles: it stays null.
    assertThat(stat.get("totalLogFiles")).isNull();
  }

  @Test
  void compactedCommitsAreOperationCompact() throws IOException {
    byte[] json = utf8(COMMIT_JSON.replace("\"compacted\":false", "\"compacted\":true"));
    ArchiveEntry entry = UTC.convert(instant(Action.COMMIT, State.COMPLETED), MODIFIED, json);
    GenericRecord metadata = (GenericRecord) entry.record().get("hoodieCommitMetadata");
    assertThat(metadata.get("operationType")).isEqualTo("COMPACT");
  }

  @Test
  void missingWriteStatCountersAreZeroAndUnknownFieldsAreDropped() throws IOException {
    // What Hudi 0.15 produces for this input (checked against its MetadataConversionUtils):
    // counters are Java longs there, so missing and null ones are 0.
    String json =
        """
        {"partitionToWriteStats":{"p1":[{"fileId":"f1","path":"p1/f1.parquet","numWrites":5,
          "bogus":1,"totalLogBlocks":null}]},"compacted":true,"extraMetadata":{"schema":"x"},
          "operationType":"UPSERT","extra":3}
        """;
    ArchiveEntry entry =
        UTC.convert(instant(Action.DELTA_COMMIT, State.COMPLETED), MODIFIED, utf8(json));
    GenericRecord metadata = (GenericRecord) entry.record().get("hoodieCommitMetadata");
    Map<String, Object> stat = new java.util.LinkedHashMap<>();
    stat.put("$type", "org.apache.hudi.avro.model.HoodieWriteStat");
    stat.put("fileId", "f1");
    stat.put("path", "p1/f1.parquet");
    stat.put("prevCommit", null);
    stat.put("numWrites", 5L);
    stat.put("numDeletes", 0L);
    stat.put("numUpdateWrites", 0L);
    stat.put("totalWriteBytes", 0L);
    stat.put("totalWriteErrors", 0L);
    stat.put("partitionPath", null);
    stat.put("totalLogRecords", 0L);
    stat.put("totalLogFiles", null);
    stat.put("totalUpdatedRecordsCompacted", 0L);
    stat.put("numInserts", 0L);
    stat.put("totalLogBlocks", 0L);
    stat.put("totalCorruptLogBlock", 0L);
    stat.put("totalRollbackBlocks", 0L);
    stat.put("fileSizeInBytes", 0L);
    Map<String, Object> expected = new java.util.LinkedHashMap<>();
    expected.put("$type", "org.apache.hudi.avro.model.HoodieCommitMetadata");
    expected.put("partitionToWriteStats", Map.of("p1", List.of(stat)));
    expected.put("extraMetadata", Map.of("schema", "x", "ROLLING_STAT", ""));
    expected.put("version", null);
    expected.put("operationType", "COMPACT");
    assertThat(plain(metadata)).isEqualTo(expected);
  }

  @Test
  void emptyPendingCommitFileIsEmptyMetadata() throws IOException {
    ArchiveEntry entry = UTC.convert(instant(Action.COMMIT, State.INFLIGHT), MODIFIED, new byte[0]);
    GenericRecord metadata = (GenericRecord) entry.record().get("hoodieCommitMetadata");
    Map<String, Object> expected = new java.util.LinkedHashMap<>();
    expected.put("$type", "org.apache.hudi.avro.model.HoodieCommitMetadata");
    expected.put("partitionToWriteStats", Map.of());
    expected.put("extraMetadata", Map.of("ROLLING_STAT", ""));
    expected.put("version", null);
    expected.put("operationType", "UNKNOWN");
    assertThat(plain(metadata)).isEqualTo(expected);
  }

  @Test
  void emptyCompletedFileGivesOnlyTheCommonFields() throws IOException {
    ArchiveEntry entry = UTC.convert(instant(Action.CLEAN, State.COMPLETED), MODIFIED, new byte[0]);
    GenericRecord record = entry.record();
    List<String> set = new ArrayList<>();
    for (Schema.Field f : record.getSchema().getFields()) {
      if (record.get(f.pos()) != null) {
        set.add(f.name());
      }
    }
    assertThat(set)
        .containsExactly("commitTime", "actionType", "actionState", "stateTransitionTime");
    assertThat(entry.rawContent()).hasValueSatisfying(b -> assertThat(b).isEmpty());
  }

  @Test
  void replaceCommitKeepsReplacedFileIds() throws IOException {
    ArchiveEntry entry =
        UTC.convert(instant(Action.REPLACE_COMMIT, State.COMPLETED), MODIFIED, utf8(REPLACE_JSON));
    GenericRecord metadata = (GenericRecord) entry.record().get("hoodieReplaceCommitMetadata");
    assertThat(metadata.getSchema()).isEqualTo(ArchiveSchemas.REPLACE_COMMIT_METADATA);
    assertThat(plain(metadata.get("partitionToReplaceFileIds")))
        .isEqualTo(Map.of("p1", List.of("f1")));
    assertThat(metadata.get("operationType")).isEqualTo("CLUSTER");
    assertThat(plain(metadata.get("extraMetadata"))).isEqualTo(Map.of("ROLLING_STAT", ""));
  }

  @Test
  void avroFileKeepsItsOwnSchema() throws IOException {
    // An older Hudi's clean metadata: fewer fields, and one ours lacks.
    Schema old =
        SchemaBuilder.record("HoodieCleanMetadata")
            .namespace(ArchiveSchemas.NAMESPACE)
            .fields()
            .requiredString("startCleanTime")
            .requiredLong("timeTakenInMillis")
            .requiredInt("totalFilesDeleted")
            .requiredString("earliestCommitToRetain")
            .optionalString("legacyField")
            .endRecord();
    GenericRecord record =
        new GenericRecordBuilder(old)
            .set("startCleanTime", T)
            .set("timeTakenInMillis", 5L)
            .set("totalFilesDeleted", 2)
            .set("earliestCommitToRetain", "20240101000000000")
            .set("legacyField", "kept")
            .build();
    ArchiveEntry entry =
        UTC.convert(
            instant(Action.CLEAN, State.COMPLETED), MODIFIED, AvroInstantFiles.serialize(record));

    GenericRecord details = (GenericRecord) entry.record().get("hoodieCleanMetadata");
    assertThat(details.getSchema()).isEqualTo(old);
    assertThat(details.get("legacyField").toString()).isEqualTo("kept");
    Schema union = entry.record().getSchema().getField("hoodieCleanMetadata").schema();
    assertThat(union.getTypes().get(1)).isEqualTo(old);

    GenericRecord back = roundTrip(List.of(entry)).get(0);
    assertThat(plainEntry(back)).isEqualTo(plainEntry(entry.record()));
    assertThat(((GenericRecord) back.get("hoodieCleanMetadata")).getSchema()).isEqualTo(old);
  }

  @Test
  void stateTransitionTimeIsTheModificationTimeInTheZone() throws IOException {
    ArchiveEntry kolkata =
        ArchiveEntryConverter.inZone(ZoneId.of("Asia/Kolkata"))
            .convert(instant(Action.COMMIT, State.REQUESTED), MODIFIED, new byte[0]);
    assertThat(kolkata.stateTransitionTime()).hasValue("20240102083406789");
    ArchiveEntry local =
        ArchiveEntryConverter.create()
            .convert(instant(Action.COMMIT, State.REQUESTED), MODIFIED, new byte[0]);
    assertThat(local.stateTransitionTime())
        .hasValue(
            java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")
                .withZone(ZoneId.systemDefault())
                .format(MODIFIED));
  }

  @Test
  void rawBytesAreTheFileBytes() throws IOException {
    byte[] content = utf8(COMMIT_JSON);
    ArchiveEntry entry = UTC.convert(instant(Action.COMMIT, State.COMPLETED), MODIFIED, content);
    assertThat(entry.rawContent())
        .hasValueSatisfying(b -> assertThat(b).isEqualTo(utf8(COMMIT_JSON)));
  }

  @Test
  void unreadableContentIsAnInstantConversionExceptionNamingTheProblem() {
    TimelineInstant commit = instant(Action.COMMIT, State.COMPLETED);
    assertThatThrownBy(() -> UTC.convert(commit, MODIFIED, utf8("{\"partitionToWriteStats\":")))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining(commit.toString())
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> UTC.convert(commit, MODIFIED, utf8("[1,2]")))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(
            () ->
                UTC.convert(
                    commit,
                    MODIFIED,
                    utf8("{\"partitionToWriteStats\":{\"p\":[{\"numWrites\":\"many\"}]}}")))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining("numWrites")
        .hasMessageContaining("not a number");

    TimelineInstant clean = instant(Action.CLEAN, State.COMPLETED);
    assertThatThrownBy(() -> UTC.convert(clean, MODIFIED, utf8(COMMIT_JSON)))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining(clean.toString())
        .hasMessageContaining("not an Avro object container");
    // A plan where the completed clean's metadata must be.
    assertThatThrownBy(
            () ->
                UTC.convert(
                    clean,
                    MODIFIED,
                    AvroInstantFiles.serialize(SampleRecords.cleanerPlan("20240101000000000"))))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining("HoodieCleanerPlan")
        .hasMessageContaining("expected org.apache.hudi.avro.model.HoodieCleanMetadata");
    InstantConversionException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            InstantConversionException.class, () -> UTC.convert(clean, MODIFIED, utf8("x")));
    assertThat(e.instant()).isEqualTo(clean);
  }

  static List<GenericRecord> roundTrip(List<ArchiveEntry> entries) throws IOException {
    List<GenericRecord> records = new ArrayList<>();
    for (byte[] block : ArchiveBlockEncoder.encode(entries)) {
      LogBlockReader reader =
          new LogBlockReader(new ByteArrayInputStream(block), block.length, "test");
      LogBlock b = reader.next().orElseThrow();
      assertThat(reader.next()).isEmpty();
      records.addAll(b.records(null));
    }
    return records;
  }

  static GenericRecord record(Schema schema) {
    return new GenericData.Record(schema);
  }
}
