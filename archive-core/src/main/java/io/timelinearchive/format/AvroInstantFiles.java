package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/** Avro instant files (clean plans, rollback metadata, ...) as Hudi writes them. */
public final class AvroInstantFiles {
  private AvroInstantFiles() {}

  /**
   * An Avro object container file holding {@code record} under its own schema, without a codec: the
   * content of an Avro instant file, for example {@code T.clean} with a record of {@link
   * ArchiveSchemas#CLEAN_METADATA}.
   */
  public static byte[] serialize(GenericRecord record) {
    requireNonNull(record, "record is null");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(record.getSchema()))) {
      writer.create(record.getSchema(), bytes);
      writer.append(record);
    } catch (IOException e) {
      throw new UncheckedIOException("in-memory write failed", e);
    }
    return bytes.toByteArray();
  }
}
