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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.junit.jupiter.api.Test;

class TestArchiveBlockEncoder {
  private static final java.time.Instant MODIFIED = java.time.Instant.parse("2024-03-01T10:00:00Z");
  private static final ArchiveEntryConverter CONVERTER =
      ArchiveEntryConverter.inZone(ZoneOffset.UTC);

  /** An older Hudi's clean metadata, with a nested record of a name Hudi 0.15 does not use. */
  static Schema legacyCleanSchema(String nestedField) {
    Schema nested =
        SchemaBuilder.record("LegacyInfo")
            .namespace(ArchiveSchemas.NAMESPACE)
            .fields()
            .requiredString(nestedField)
            .endRecord();
    return SchemaBuilder.record("HoodieCleanMetadata")
        .namespace(ArchiveSchemas.NAMESPACE)
        .fields()
        .requiredString("startCleanTime")
        .name("info")
        .type(nested)
        .noDefault()
        .endRecord();
  }

  static Schema legacySavepointSchema(String nestedField) {
    Schema nested =
        SchemaBuilder.record("LegacyInfo")
            .namespace(ArchiveSchemas.NAMESPACE)
            .fields()
            .requiredString(nestedField)
            .endRecord();
    return SchemaBuilder.record("HoodieSavepointMetadata")
        .namespace(ArchiveSchemas.NAMESPACE)
        .fields()
        .requiredString("savepointedBy")
        .name("info")
        .type(nested)
        .noDefault()
        .endRecord();
  }

  static GenericRecord legacy(Schema schema, String first, String nested) {
    Schema nestedSchema = schema.getField("info").schema();
    return new GenericRecordBuilder(schema)
        .set(schema.getFields().get(0).name(), first)
        .set(
            "info",
            new GenericRecordBuilder(nestedSchema)
                .set(nestedSchema.getFields().get(0).name(), nested)
                .build())
        .build();
  }

  static ArchiveEntry entry(String time, Action action, State state, byte[] content) {
    try {
      return CONVERTER.convert(new TimelineInstant(time, action, state), MODIFIED, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ArchiveEntry commit(String time) {
    return entry(
        time,
        Action.COMMIT,
        State.COMPLETED,
        TestArchiveEntryConverter.COMMIT_JSON.getBytes(StandardCharsets.UTF_8));
  }

  static ArchiveEntry clean(String time) {
    return entry(
        time,
        Action.CLEAN,
        State.COMPLETED,
        AvroInstantFiles.serialize(SampleRecords.cleanMetadata(time)));
  }

  static ArchiveEntry legacyClean(String time, String nestedField) {
    return entry(
        time,
        Action.CLEAN,
        State.COMPLETED,
        AvroInstantFiles.serialize(legacy(legacyCleanSchema(nestedField), time, "v")));
  }

  record Block(Schema schema, List<GenericRecord> records) {}

  static List<Block> blocks(List<byte[]> encoded) throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (byte[] bytes : encoded) {
      LogBlockReader reader =
          new LogBlockReader(new ByteArrayInputStream(bytes), bytes.length, "test");
      LogBlock block = reader.next().orElseThrow();
      assertThat(reader.next()).isEmpty();
      assertThat(reader.truncatedTail()).isFalse();
      blocks.add(new Block(block.schema(), block.records(null)));
    }
    return blocks;
  }

  static Schema branch(Schema entrySchema, EntryDetail detail) {
    return SampleRecords.nonNull(entrySchema.getField(detail.fieldName()).schema());
  }

  @Test
  void entriesWithTheDefaultSchemasShareOneBlockUnderHudisSchema() throws Exception {
    List<ArchiveEntry> entries = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      String time = "2024030110000000" + i;
      entries.add(i % 2 == 0 ? commit(time) : clean(time));
    }
    List<Block> blocks = blocks(ArchiveBlockEncoder.encode(entries));
    assertThat(blocks).hasSize(1);
    assertThat(blocks.get(0).schema()).isEqualTo(ArchiveSchemas.ARCHIVED_META_ENTRY);
    assertThat(blocks.get(0).schema().toString())
        .isEqualTo(ArchiveSchemas.ARCHIVED_META_ENTRY.toString());
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    for (int i = 0; i < entries.size(); i++) {
      GenericRecord written = blocks.get(0).records().get(i);
      assertThat(plainEntry(written)).isEqualTo(plainEntry(entries.get(i).record()));
      java.nio.ByteBuffer content = (java.nio.ByteBuffer) written.get(EntryFields.DEFLATED_CONTENT);
      assertThat(inflater.inflate(entries.get(i).instant(), content))
          .isEqualTo(entries.get(i).rawContent().orElseThrow());
    }
  }

  @Test
  void differentSchemasForOneFieldGoToSeparateBlocksInOrder() throws IOException {
    List<ArchiveEntry> entries =
        List.of(
            clean("20240301100000001"),
            clean("20240301100000002"),
            legacyClean("20240301100000003", "a"),
            commit("20240301100000004"),
            clean("20240301100000005"));
    List<Block> blocks = blocks(ArchiveBlockEncoder.encode(entries));

    assertThat(blocks).extracting(b -> b.records().size()).containsExactly(2, 2, 1);
    assertThat(branch(blocks.get(0).schema(), EntryDetail.CLEAN_METADATA))
        .isEqualTo(ArchiveSchemas.CLEAN_METADATA);
    // The legacy clean and the commit share a block: each uses the branch it needs.
    assertThat(branch(blocks.get(1).schema(), EntryDetail.CLEAN_METADATA))
        .isEqualTo(legacyCleanSchema("a"));
    assertThat(branch(blocks.get(1).schema(), EntryDetail.COMMIT_METADATA))
        .isEqualTo(ArchiveSchemas.COMMIT_METADATA);
    assertThat(blocks.get(2).schema()).isEqualTo(ArchiveSchemas.ARCHIVED_META_ENTRY);

    List<Object> back =
        blocks.stream().flatMap(b -> b.records().stream()).map(SampleRecords::plainEntry).toList();
    assertThat(back).isEqualTo(entries.stream().map(e -> plainEntry(e.record())).toList());
  }

  @Test
  void typesClashingByNameAcrossFieldsGoToSeparateBlocks() throws IOException {
    ArchiveEntry legacyCleanEntry = legacyClean("20240301100000001", "a");
    ArchiveEntry legacySavepoint =
        entry(
            "20240301100000002",
            Action.SAVEPOINT,
            State.COMPLETED,
            AvroInstantFiles.serialize(legacy(legacySavepointSchema("b"), "admin", "v")));
    List<Block> blocks =
        blocks(ArchiveBlockEncoder.encode(List.of(legacyCleanEntry, legacySavepoint)));
    assertThat(blocks).hasSize(2);
    assertThat(plainEntry(blocks.get(1).records().get(0)))
        .isEqualTo(plainEntry(legacySavepoint.record()));
  }

  @Test
  void aRecordClashingWithHudisOwnTypesCannotBeArchived() {
    // A savepoint file whose nested record reuses the name of the rollback's HoodieInstantInfo.
    Schema nested =
        SchemaBuilder.record("HoodieInstantInfo")
            .namespace(ArchiveSchemas.NAMESPACE)
            .fields()
            .requiredString("somethingElse")
            .endRecord();
    Schema savepoint =
        SchemaBuilder.record("HoodieSavepointMetadata")
            .namespace(ArchiveSchemas.NAMESPACE)
            .fields()
            .name("info")
            .type(nested)
            .noDefault()
            .endRecord();
    GenericRecord record =
        new GenericRecordBuilder(savepoint)
            .set("info", new GenericRecordBuilder(nested).set("somethingElse", "x").build())
            .build();
    TimelineInstant instant =
        new TimelineInstant("20240301100000001", Action.SAVEPOINT, State.COMPLETED);
    assertThatThrownBy(
            () -> CONVERTER.convert(instant, MODIFIED, AvroInstantFiles.serialize(record)))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining("HoodieInstantInfo");
  }

  @Test
  void entriesReadFromHudisSixteenFieldSchemaAreEncodedByName() throws IOException {
    GenericRecord hudi = new GenericData.Record(ArchiveSchemas.HUDI_ARCHIVED_META_ENTRY);
    hudi.put("commitTime", "20240301100000001");
    hudi.put("actionType", "clean");
    hudi.put("actionState", "COMPLETED");
    hudi.put("stateTransitionTime", "20240301100000009");
    hudi.put("hoodieCleanMetadata", SampleRecords.cleanMetadata("20240301100000001"));
    ArchiveEntry entry =
        ArchiveEntry.of(
            new TimelineInstant("20240301100000001", Action.CLEAN, State.COMPLETED), hudi);

    GenericRecord back = blocks(ArchiveBlockEncoder.encode(List.of(entry))).get(0).records().get(0);
    assertThat(back.getSchema().getFields()).hasSize(17);
    assertThat(back.get(EntryFields.DEFLATED_CONTENT)).isNull();
    assertThat(plain(back.get("hoodieCleanMetadata")))
        .isEqualTo(plain(hudi.get("hoodieCleanMetadata")));
    assertThat(back.get("stateTransitionTime")).isEqualTo("20240301100000009");
  }

  @Test
  void noEntriesNoBlocks() {
    assertThat(ArchiveBlockEncoder.encode(List.of())).isEmpty();
  }

  @Property(tries = 60)
  void randomEntriesInRandomBatchesReadBackEqual(
      @ForAll("entries") @Size(max = 40) List<ArchiveEntry> entries,
      @ForAll @IntRange(min = 1, max = 15) int batchSize)
      throws IOException {
    List<byte[]> encoded = new ArrayList<>();
    for (int from = 0; from < entries.size(); from += batchSize) {
      encoded.addAll(
          ArchiveBlockEncoder.encode(
              entries.subList(from, Math.min(entries.size(), from + batchSize))));
    }
    byte[] file = HandBlock.concat(encoded.toArray(new byte[0][]));
    LogBlockReader reader = new LogBlockReader(new ByteArrayInputStream(file), file.length, "test");
    List<Object> back = new ArrayList<>();
    for (var block = reader.next(); block.isPresent(); block = reader.next()) {
      assertThat(block.get().recordCount()).isLessThanOrEqualTo(batchSize);
      block.get().records(null).forEach(r -> back.add(plainEntry(r)));
    }
    assertThat(reader.truncatedTail()).isFalse();
    assertThat(reader.validLength()).isEqualTo(file.length);
    assertThat(back).isEqualTo(entries.stream().map(e -> plainEntry(e.record())).toList());
  }

  @Provide
  Arbitrary<List<ArchiveEntry>> entries() {
    Arbitrary<String> times = Arbitraries.strings().numeric().ofLength(17);
    Arbitrary<String> words = Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(12);
    Arbitrary<ArchiveEntry> entry =
        Combinators.combine(times, Arbitraries.integers().between(0, 11), words)
            .as(TestArchiveBlockEncoder::randomEntry);
    return entry.list();
  }

  static ArchiveEntry randomEntry(String time, int kind, String word) {
    String json =
        "{\"partitionToWriteStats\":{\""
            + word
            + "\":[{\"fileId\":\""
            + word
            + "\",\"numWrites\":"
            + word.length()
            + "}]},\"extraMetadata\":{\"k\":\""
            + word
            + "\"},\"operationType\":\"INSERT\"}";
    byte[] jsonBytes = json.getBytes(StandardCharsets.UTF_8);
    return switch (kind) {
      case 0 -> entry(time, Action.COMMIT, State.COMPLETED, jsonBytes);
      case 1 -> entry(time, Action.DELTA_COMMIT, State.INFLIGHT, jsonBytes);
      case 2 -> entry(time, Action.COMMIT, State.REQUESTED, new byte[0]);
      case 3 ->
          entry(
              time,
              Action.CLEAN,
              State.REQUESTED,
              AvroInstantFiles.serialize(SampleRecords.cleanerPlan(time)));
      case 4 -> clean(time);
      case 5 ->
          entry(
              time,
              Action.ROLLBACK,
              State.COMPLETED,
              AvroInstantFiles.serialize(
                  SampleRecords.rollbackMetadata(time, word.isEmpty() ? "1" : time)));
      case 6 ->
          entry(
              time,
              Action.SAVEPOINT,
              State.COMPLETED,
              AvroInstantFiles.serialize(SampleRecords.savepointMetadata(word)));
      case 7 ->
          entry(
              time,
              Action.COMPACTION,
              State.REQUESTED,
              AvroInstantFiles.serialize(SampleRecords.compactionPlan(time)));
      case 8 ->
          entry(
              time,
              Action.REPLACE_COMMIT,
              State.REQUESTED,
              AvroInstantFiles.serialize(SampleRecords.requestedReplaceMetadata()));
      case 9 -> legacyClean(time, word.length() % 2 == 0 ? "a" : "b");
      case 10 -> entry(time, Action.DELTA_COMMIT, State.COMPLETED, new byte[0]);
      default -> entry(time, Action.REPLACE_COMMIT, State.COMPLETED, jsonBytes);
    };
  }
}
