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
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

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
    Encoded encoded = readEncoded(instant, expected, content);
    try {
      Map<Schema, GenericDatumReader<GenericRecord>> readers = READERS.get();
      if (readers.size() >= MAX_READERS && !readers.containsKey(encoded.schema())) {
        readers.clear(); // the schema cache let go of these schemas
      }
      return readers
          .computeIfAbsent(encoded.schema(), GenericDatumReader::new)
          .read(
              null,
              DecoderFactory.get()
                  .binaryDecoder(encoded.bytes(), encoded.offset(), encoded.length(), null));
    } catch (IOException | RuntimeException e) {
      throw new InstantConversionException(
          instant, "the Avro record in the file does not decode: " + e.getMessage(), e);
    }
  }

  /**
   * The first record of an Avro instant file, as the file holds it: its schema, and its bytes in
   * Avro's binary encoding under that schema, which is what an archive entry carrying the schema
   * holds, so the entry copies them instead of decoding and encoding the record anew. The bytes are
   * checked as a decoder would, without building the record ({@link #check}).
   *
   * @param bytes holds the record's encoding from {@code offset}, {@code length} bytes long
   */
  record Encoded(Schema schema, byte[] bytes, int offset, int length) {}

  /**
   * Reads the first record of an Avro instant file as {@link #read} does, without decoding it.
   *
   * @throws InstantConversionException as {@link #read}
   */
  static Encoded readEncoded(TimelineInstant instant, Schema expected, byte[] content)
      throws InstantConversionException {
    if (content.length == 0) {
      throw new InstantConversionException(
          instant, "the file is empty; expected an Avro " + expected.getName());
    }
    Encoded encoded;
    try {
      encoded = firstRecord(instant, expected, content);
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
    String name = encoded.schema().getFullName();
    if (!name.equals(expected.getFullName())) {
      throw new InstantConversionException(
          instant, "the Avro file holds a " + name + " record; expected " + expected.getFullName());
    }
    return encoded;
  }

  // The object container format: magic "Obj" 1, a map of metadata (avro.schema, avro.codec), a
  // 16-byte sync marker, then blocks of (record count, byte size, records, sync marker).
  private static Encoded firstRecord(TimelineInstant instant, Schema expected, byte[] content)
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
    long blockSize = in.readLong();
    if (schema.getType() != Schema.Type.RECORD) {
      throw new InstantConversionException(
          instant,
          "the Avro file holds a "
              + schema.getType().getName()
              + ", not a "
              + expected.getName()
              + " record");
    }
    int start = content.length - in.inputStream().available();
    if (blockSize < 0 || blockSize > content.length - start) {
      throw new IOException("its first block claims " + blockSize + " bytes");
    }
    // The record lies within its block, as Avro's reader reads it.
    BinaryDecoder block = DecoderFactory.get().binaryDecoder(content, start, (int) blockSize, null);
    check(schema, block);
    int length = (int) blockSize - block.inputStream().available();
    return new Encoded(schema, content, start, length);
  }

  /**
   * Walks one datum as {@code schema} says, failing where decoding it would: a negative length, a
   * union branch or enum symbol that does not exist, data that ends early.
   */
  private static void check(Schema schema, BinaryDecoder in) throws IOException {
    switch (schema.getType()) {
      case RECORD -> {
        for (Schema.Field field : schema.getFields()) {
          check(field.schema(), in);
        }
      }
      case UNION ->
          check(schema.getTypes().get(index(in.readIndex(), schema.getTypes().size())), in);
      case ENUM -> index(in.readEnum(), schema.getEnumSymbols().size());
      case ARRAY -> {
        for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
          for (long i = 0; i < n; i++) {
            check(schema.getElementType(), in);
          }
        }
      }
      case MAP -> {
        for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
          for (long i = 0; i < n; i++) {
            in.skipFixed(length(in));
            check(schema.getValueType(), in);
          }
        }
      }
      case STRING, BYTES -> in.skipFixed(length(in));
      case FIXED -> in.skipFixed(schema.getFixedSize());
      case INT -> in.readInt();
      case LONG -> in.readLong();
      case FLOAT -> in.readFloat();
      case DOUBLE -> in.readDouble();
      case BOOLEAN -> in.readBoolean();
      case NULL -> in.readNull();
    }
  }

  private static int index(int index, int size) throws IOException {
    if (index < 0 || index >= size) {
      throw new IOException("an index " + index + " where there are " + size + " to choose from");
    }
    return index;
  }

  private static int length(BinaryDecoder in) throws IOException {
    long length = in.readLong();
    if (length < 0 || length > Integer.MAX_VALUE) {
      throw new IOException("a length of " + length);
    }
    return (int) length;
  }

  private static Encoded viaDataFileReader(TimelineInstant instant, Schema expected, byte[] content)
      throws IOException {
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
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
      new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
      return new Encoded(record.getSchema(), bytes.toByteArray(), 0, bytes.size());
    }
  }

  private static final byte[] MAGIC = {'O', 'b', 'j', 1};
  private static final int SYNC_SIZE = 16;
  private static final int MAX_READERS = 256;

  // Avro resolves a reader's schemas once and keeps that per reader; a reader is not thread-safe.
  private static final ThreadLocal<Map<Schema, GenericDatumReader<GenericRecord>>> READERS =
      ThreadLocal.withInitial(IdentityHashMap::new);
}
