package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
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

  /**
   * The first record of an Avro instant file, with the file's own schema.
   *
   * @throws InstantConversionException if the content is not an Avro object container holding a
   *     record named as {@code expected}
   */
  public static GenericRecord read(TimelineInstant instant, Schema expected, byte[] content)
      throws InstantConversionException {
    if (content.length == 0) {
      throw new InstantConversionException(
          instant, "the file is empty; expected an Avro " + expected.getName());
    }
    GenericRecord record;
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(new SeekableByteArrayInput(content), new CanonicalSchemaReader())) {
      if (!reader.hasNext()) {
        throw new InstantConversionException(
            instant, "the Avro file holds no record; expected a " + expected.getName());
      }
      Object first = reader.next();
      if (!(first instanceof GenericRecord r)) {
        throw new InstantConversionException(
            instant,
            "the Avro file holds a "
                + reader.getSchema().getType().getName()
                + ", not a "
                + expected.getName()
                + " record");
      }
      record = r;
    } catch (InstantConversionException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new InstantConversionException(
          instant,
          "the file is not an Avro object container holding a "
              + expected.getName()
              + ": "
              + e.getMessage(),
          e);
    }
    String name = record.getSchema().getFullName();
    if (!name.equals(expected.getFullName())) {
      throw new InstantConversionException(
          instant, "the Avro file holds a " + name + " record; expected " + expected.getFullName());
    }
    return record;
  }

  /**
   * Reads with the one shared instance of the file's schema (see {@link SchemaCache#canonical}).
   */
  private static final class CanonicalSchemaReader extends GenericDatumReader<GenericRecord> {
    @Override
    public void setSchema(Schema writer) {
      super.setSchema(SchemaCache.canonical(writer));
    }
  }
}
