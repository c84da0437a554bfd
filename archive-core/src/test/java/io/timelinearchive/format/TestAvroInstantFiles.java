package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class TestAvroInstantFiles {
  private static final TimelineInstant CLEAN =
      new TimelineInstant("20261129120000000", Action.CLEAN, State.COMPLETED);
  private static final TimelineInstant CLEAN_REQUESTED =
      new TimelineInstant("20261129120000000", Action.CLEAN, State.REQUESTED);

  @Test
  void filesWithEqualSchemasAreReadWithOneSchemaInstance() throws Exception {
    // Each file carries its own copy of the schema; a reader thread that kept a resolver per copy
    // would hold every file's schema for the whole run.
    byte[] first = AvroInstantFiles.serialize(SampleRecords.cleanMetadata("20261129110000000"));
    byte[] second = AvroInstantFiles.serialize(SampleRecords.cleanMetadata("20261129113000000"));

    GenericRecord a = AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, first);
    GenericRecord b = AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, second);

    assertThat(a.getSchema()).isSameAs(b.getSchema());
    assertThat(a.get("startCleanTime").toString()).isEqualTo("20261129110000000");
    assertThat(b.get("startCleanTime").toString()).isEqualTo("20261129113000000");
  }

  @Test
  void aFileWrittenWithACodecIsReadAsAvroWouldReadIt() throws Exception {
    GenericRecord written = SampleRecords.cleanMetadata("20261129110000000");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(written.getSchema()))) {
      writer.setCodec(CodecFactory.deflateCodec(9));
      writer.create(written.getSchema(), bytes);
      writer.append(written);
    }

    GenericRecord read =
        AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, bytes.toByteArray());

    assertThat(read).isEqualTo(written);
  }

  @Test
  void contentThatIsNotAnAvroContainerIsRefusedNamingTheInstant() {
    byte[] json = "{\"startCleanTime\": \"20261129110000000\"}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, json))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining("20261129120000000")
        .hasMessageContaining("not an Avro object container");
  }

  @Test
  void aContainerWithoutRecordsIsRefused() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(
            new GenericDatumWriter<GenericRecord>(ArchiveSchemas.CLEAN_METADATA))) {
      writer.create(ArchiveSchemas.CLEAN_METADATA, bytes);
    }

    assertThatThrownBy(
            () -> AvroInstantFiles.read(CLEAN, ArchiveSchemas.CLEAN_METADATA, bytes.toByteArray()))
        .isInstanceOf(InstantConversionException.class)
        .hasMessageContaining("holds no record");
  }

  /**
   * The record's bytes are taken as the file holds them, after a check that stands in for decoding
   * them: whatever damage to the record makes Avro's own reader fail makes the check fail, and what
   * Avro reads, the check passes.
   */
  @Property(tries = 1_000)
  void theCheckOfARecordAgreesWithAvrosReader(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 3) int damage) throws Exception {
    Random r = new Random(seed);
    byte[] file = AvroInstantFiles.serialize(SampleRecords.cleanerPlan("20261129110000000"));
    AvroInstantFiles.Encoded record =
        AvroInstantFiles.readEncoded(CLEAN_REQUESTED, ArchiveSchemas.CLEANER_PLAN, file);
    for (int i = 0; i < damage; i++) {
      file[record.offset() + r.nextInt(record.length())] = (byte) r.nextInt(256);
    }

    boolean avroReads;
    try (DataFileReader<Object> reader =
        new DataFileReader<>(new SeekableByteArrayInput(file), new GenericDatumReader<>())) {
      reader.next();
      avroReads = true;
    } catch (IOException | RuntimeException e) {
      avroReads = false;
    }
    boolean checked;
    try {
      AvroInstantFiles.readEncoded(CLEAN_REQUESTED, ArchiveSchemas.CLEANER_PLAN, file);
      checked = true;
    } catch (InstantConversionException e) {
      checked = false;
    }
    Statistics.collect(avroReads ? "still reads" : "damaged");
    assertThat(checked).isEqualTo(avroReads);
  }

  @Test
  void recordBytesThatNoDecoderReadsAreRefused() throws Exception {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\": \"record\", \"name\": \"HoodieCleanerPlan\","
                    + " \"namespace\": \"org.apache.hudi.avro.model\", \"fields\": ["
                    + " {\"name\": \"s\", \"type\": \"string\"},"
                    + " {\"name\": \"e\", \"type\": {\"type\": \"enum\", \"name\": \"E\","
                    + " \"symbols\": [\"X\", \"Y\"]}},"
                    + " {\"name\": \"u\", \"type\": [\"null\", \"long\"]}]}");
    // zig-zag varints: 0x01 is -1, 0x02 is 1, 0x04 is 2, 0x06 is 3
    byte[] good = {0x02, 'a', 0x02, 0x02, 0x06};
    byte[] negativeLength = {0x01, 0x02, 0x02, 0x06};
    byte[] noSuchSymbol = {0x02, 'a', 0x04, 0x02, 0x06};
    byte[] noSuchBranch = {0x02, 'a', 0x02, 0x04, 0x06};
    byte[] cutShort = {0x02, 'a', 0x02, 0x02};

    assertThat(
            AvroInstantFiles.readEncoded(
                    CLEAN_REQUESTED, ArchiveSchemas.CLEANER_PLAN, containerOf(schema, good))
                .length())
        .isEqualTo(good.length);
    for (byte[] bad : List.of(negativeLength, noSuchSymbol, noSuchBranch, cutShort)) {
      assertThatThrownBy(
              () ->
                  AvroInstantFiles.readEncoded(
                      CLEAN_REQUESTED, ArchiveSchemas.CLEANER_PLAN, containerOf(schema, bad)))
          .isInstanceOf(InstantConversionException.class)
          .hasMessageContaining("not an Avro object container holding a HoodieCleanerPlan");
    }
  }

  private static byte[] containerOf(Schema schema, byte[] encodedRecord) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
      writer.create(schema, bytes);
      writer.appendEncoded(java.nio.ByteBuffer.wrap(encodedRecord));
    }
    return bytes.toByteArray();
  }
}
