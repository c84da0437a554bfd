package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

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
   * <p>The container's header is read here rather than by Avro's {@code DataFileReader}, which
   * parses the schema's JSON afresh for every file: a table's clean and rollback files carry the
   * same few schemas thousands of times, so they are parsed once ({@link SchemaCache}) and read
   * with one datum reader per schema and thread.
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
    try {
      record = firstRecord(instant, expected, content);
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

  // The object container format: magic "Obj" 1, a map of metadata (avro.schema, avro.codec), a
  // 16-byte sync marker, then blocks of (record count, byte size, records, sync marker).
  private static GenericRecord firstRecord(TimelineInstant instant, Schema expected, byte[] content)
      throws IOException {
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(content, null);
    byte[] magic = new byte[MAGIC.length];
    in.readFixed(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException("it does not start with the Avro magic Obj\\1");
    }
    String schemaJson = null;
    String codec = "null";
    for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
      for (long i = 0; i < n; i++) {
        String key = in.readString();
        byte[] value = in.readBytes(null).array();
        if (key.equals("avro.schema")) {
          schemaJson = new String(value, StandardCharsets.UTF_8);
        } else if (key.equals("avro.codec")) {
          codec = new String(value, StandardCharsets.UTF_8);
        }
      }
    }
    if (schemaJson == null) {
      throw new IOException("its header names no schema");
    }
    if (!codec.equals("null")) {
      return viaDataFileReader(instant, expected, content); // Hudi writes none; Avro reads any
    }
    in.skipFixed(SYNC_SIZE);
    Schema schema = SchemaCache.parse(schemaJson);
    if (in.isEnd() || in.readLong() < 1) {
      throw new InstantConversionException(
          instant, "the Avro file holds no record; expected a " + expected.getName());
    }
    in.readLong(); // the block's size in bytes
    if (schema.getType() != Schema.Type.RECORD) {
      throw new InstantConversionException(
          instant,
          "the Avro file holds a "
              + schema.getType().getName()
              + ", not a "
              + expected.getName()
              + " record");
    }
    Map<Schema, GenericDatumReader<GenericRecord>> readers = READERS.get();
    if (readers.size() >= MAX_READERS && !readers.containsKey(schema)) {
      readers.clear(); // the schema cache let go of these schemas
    }
    return readers.computeIfAbsent(schema, GenericDatumReader::new).read(null, in);
  }

  private static GenericRecord viaDataFileReader(
      TimelineInstant instant, Schema expected, byte[] content) throws IOException {
    try (DataFileReader<Object> reader =
        new DataFileReader<>(new SeekableByteArrayInput(content), new GenericDatumReader<>())) {
      if (!reader.hasNext()) {
        throw new InstantConversionException(
            instant, "the Avro file holds no record; expected a " + expected.getName());
      }
      if (!(reader.next() instanceof GenericRecord record)) {
        throw new InstantConversionException(
            instant,
            "the Avro file holds a "
                + reader.getSchema().getType().getName()
                + ", not a "
                + expected.getName()
                + " record");
      }
      return record;
    }
  }

  private static final byte[] MAGIC = {'O', 'b', 'j', 1};
  private static final int SYNC_SIZE = 16;
  private static final int MAX_READERS = 256;

  // Avro resolves a reader's schemas once and keeps that per reader; a reader is not thread-safe.
  private static final ThreadLocal<Map<Schema, GenericDatumReader<GenericRecord>>> READERS =
      ThreadLocal.withInitial(IdentityHashMap::new);
}
