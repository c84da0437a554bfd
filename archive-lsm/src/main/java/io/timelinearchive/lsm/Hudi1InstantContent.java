package io.timelinearchive.lsm;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Optional;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of a Hudi 1.x instant file, or of a history row's {@code metadata} or {@code plan}:
 * Hudi 1.0 writes each (commit metadata too, which Hudi 0.x wrote as JSON) as an Avro data file
 * holding one record under its own schema.
 */
public final class Hudi1InstantContent {
  private static final byte[] AVRO_MAGIC = {'O', 'b', 'j', 1};

  private Hudi1InstantContent() {}

  /**
   * The record of an Avro data file.
   *
   * @param bytes the content
   * @return its first record with the file's schema, or empty if the bytes are no Avro data file
   *     (empty, or JSON kept from the table's Hudi 0.x days) or hold no record
   */
  public static Optional<GenericRecord> record(byte[] bytes) {
    if (bytes.length < AVRO_MAGIC.length) {
      return Optional.empty();
    }
    for (int i = 0; i < AVRO_MAGIC.length; i++) {
      if (bytes[i] != AVRO_MAGIC[i]) {
        return Optional.empty();
      }
    }
    try (DataFileStream<GenericRecord> in =
        new DataFileStream<>(new ByteArrayInputStream(bytes), new GenericDatumReader<>())) {
      return in.hasNext() ? Optional.of(in.next()) : Optional.empty();
    } catch (IOException | AvroRuntimeException e) {
      return Optional.empty();
    }
  }
}
