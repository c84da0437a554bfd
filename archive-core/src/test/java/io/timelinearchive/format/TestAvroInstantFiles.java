package io.timelinearchive.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class TestAvroInstantFiles {
  private static final TimelineInstant CLEAN =
      new TimelineInstant("20261129120000000", Action.CLEAN, State.COMPLETED);

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
}
