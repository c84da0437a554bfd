package io.timelinearchive.format;

import static io.timelinearchive.format.LogBlockFormat.AVRO_DATA_BLOCK;
import static io.timelinearchive.format.LogBlockFormat.DATA_BLOCK_VERSION;
import static io.timelinearchive.format.LogBlockFormat.HEADER_SCHEMA;
import static io.timelinearchive.format.LogBlockFormat.LOG_FORMAT_VERSION;
import static io.timelinearchive.format.LogBlockFormat.MAGIC;
import static io.timelinearchive.format.LogBlockFormat.MAGIC_AND_SIZE;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Writes Hudi log blocks (format version 1) holding Avro data, as Hudi's archiver does. */
final class LogBlockCodec {
  private LogBlockCodec() {}

  /**
   * One Avro data block: a header with exactly one entry, SCHEMA = {@code schema} as JSON; content
   * = data block version 3, the record count, then each record as a length and its plain Avro
   * binary encoding; an empty footer; the trailer.
   *
   * @throws IllegalArgumentException if a record does not fit {@code schema}
   */
  static byte[] encodeAvroDataBlock(Schema schema, List<? extends IndexedRecord> records) {
    requireNonNull(schema, "schema is null");
    requireNonNull(records, "records is null");
    GenericDatumWriter<IndexedRecord> writer = new GenericDatumWriter<>(schema);
    List<byte[]> encoded = new ArrayList<>(records.size());
    ByteArrayOutputStream record = new ByteArrayOutputStream();
    BinaryEncoder encoder = null;
    for (int i = 0; i < records.size(); i++) {
      record.reset();
      encoder = EncoderFactory.get().directBinaryEncoder(record, encoder);
      try {
        writer.write(requireNonNull(records.get(i), "record is null"), encoder);
        encoder.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("in-memory write failed", e);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "record " + i + " of the block does not fit its schema: " + e, e);
      }
      encoded.add(record.toByteArray());
    }
    return encodeEncodedRecords(schema, encoded);
  }

  /**
   * One Avro data block, as {@link #encodeAvroDataBlock}, of records already in Avro's binary
   * encoding under {@code schema} (which is not checked).
   */
  static byte[] encodeEncodedRecords(Schema schema, List<byte[]> records) {
    requireNonNull(schema, "schema is null");
    requireNonNull(records, "records is null");
    try {
      byte[] header = header(schema);
      long contentLength = 8;
      for (byte[] record : records) {
        contentLength += 4 + record.length;
      }
      byte[] footer = new byte[4];
      long blockSize = 4 + 4 + header.length + 8 + contentLength + footer.length + 8;
      if (blockSize + MAGIC_AND_SIZE > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("a block of " + blockSize + " bytes is too large");
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) blockSize + MAGIC_AND_SIZE);
      DataOutputStream out = new DataOutputStream(bytes);
      out.write(MAGIC);
      out.writeLong(blockSize);
      out.writeInt(LOG_FORMAT_VERSION);
      out.writeInt(AVRO_DATA_BLOCK);
      out.write(header);
      out.writeLong(contentLength);
      out.writeInt(DATA_BLOCK_VERSION);
      out.writeInt(records.size());
      for (byte[] record : records) {
        out.writeInt(record.length);
        out.write(record);
      }
      out.write(footer);
      // Hudi's reader checks this against the bytes it read: everything before the trailer.
      out.writeLong(blockSize + MAGIC.length);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("in-memory write failed", e);
    }
  }

  /**
   * Block headers by writer schema instance: writing a schema's JSON costs as much as encoding the
   * block's records, and a run's blocks share a handful of schema instances ({@link
   * ArchiveSchemas}, {@link EntrySchemas}). Read-only once made; bounded like those caches.
   */
  private static final Map<Schema, byte[]> HEADERS = new IdentityHashMap<>();

  private static byte[] header(Schema schema) {
    synchronized (HEADERS) {
      if (HEADERS.size() >= 256) {
        HEADERS.clear();
      }
      return HEADERS.computeIfAbsent(schema, LogBlockCodec::headerWithSchema);
    }
  }

  private static byte[] headerWithSchema(Schema schema) {
    byte[] value = schema.toString().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(12 + value.length)
        .putInt(1)
        .putInt(HEADER_SCHEMA)
        .putInt(value.length)
        .put(value)
        .array();
  }
}
