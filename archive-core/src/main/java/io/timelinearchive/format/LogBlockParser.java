package io.timelinearchive.format;

import static io.timelinearchive.format.LogBlockFormat.AVRO_DATA_BLOCK;
import static io.timelinearchive.format.LogBlockFormat.HEADER_SCHEMA;
import static io.timelinearchive.format.LogBlockFormat.LOG_FORMAT_VERSION;
import static io.timelinearchive.format.LogBlockFormat.MAGIC_AND_SIZE;
import static io.timelinearchive.format.LogBlockFormat.MAX_HEADER_KEY;
import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;

/**
 * Checks the body of one Avro data block (everything after the magic and the size) and splits it
 * into its header, records and footer, naming the file and byte offset of whatever does not fit.
 * One parser serves one file, so that a schema repeated block after block is parsed once.
 */
final class LogBlockParser {
  private final String location;
  private byte[] lastSchemaJson;
  private Schema lastSchema;

  LogBlockParser(String location) {
    this.location = requireNonNull(location, "location is null");
  }

  /** The block whose magic starts at {@code start} of the file, with this body. */
  LogBlock parse(long start, byte[] body) throws CorruptArchiveException {
    long bodyOffset = start + MAGIC_AND_SIZE;
    ByteBuffer bb = ByteBuffer.wrap(body);
    int version = bb.getInt();
    if (version != LOG_FORMAT_VERSION) {
      throw new CorruptArchiveException(
          location, bodyOffset, "unsupported log format version " + version);
    }
    int type = bb.getInt();
    if (type != AVRO_DATA_BLOCK) {
      throw new CorruptArchiveException(
          location, bodyOffset + 4, "block type " + type + " is not an Avro data block (3)");
    }
    long headerOffset = bodyOffset + bb.position();
    Entry schemaEntry = readMetadata(bb, bodyOffset, "header");
    // Content length, footer count and trailer must still fit.
    need(bb, 8 + 4 + 8, bodyOffset, "content length");
    long contentLength = bb.getLong();
    if (contentLength < 0 || contentLength > bb.remaining() - 4 - 8) {
      throw new CorruptArchiveException(
          location,
          bodyOffset + bb.position() - 8,
          "content length " + contentLength + " does not fit in the block");
    }
    int contentStart = bb.position();
    bb.position(contentStart + (int) contentLength);
    readMetadata(bb, bodyOffset, "footer");
    if (bb.remaining() != 8) {
      throw new CorruptArchiveException(
          location,
          bodyOffset + bb.position(),
          "the block's parts end "
              + (bb.remaining() - 8)
              + " bytes before its size says (expected the 8-byte trailer)");
    }
    long trailer = bb.getLong();
    long expected = body.length + (long) MAGIC_AND_SIZE - 8;
    if (trailer != expected) {
      throw new CorruptArchiveException(
          location,
          bodyOffset + body.length - 8,
          "trailer " + trailer + " does not match the block's length " + expected);
    }
    if (schemaEntry == null) {
      throw new CorruptArchiveException(
          location, headerOffset, "the block header has no SCHEMA entry");
    }
    Schema schema = schema(body, schemaEntry, headerOffset);
    return dataBlock(start, body, bodyOffset, schema, contentStart, (int) contentLength);
  }

  private LogBlock dataBlock(
      long start, byte[] body, long bodyOffset, Schema schema, int contentStart, int length)
      throws CorruptArchiveException {
    ByteBuffer content = ByteBuffer.wrap(body, contentStart, length).slice();
    long contentOffset = bodyOffset + contentStart;
    need(content, 4, contentOffset, "data block version");
    int dataVersion = content.getInt();
    if (dataVersion < 1 || dataVersion > 3) {
      throw new CorruptArchiveException(
          location, contentOffset, "unsupported data block version " + dataVersion);
    }
    // Every version carries the record count: Hudi 0.5.3 writes version 1 with it, 0.15 version 3,
    // and both read it whatever the version (HoodieAvroDataBlockVersion.hasRecordCount()).
    need(content, 4, contentOffset, "record count");
    int count = content.getInt();
    if (count < 0 || count > content.remaining() / 4) {
      throw new CorruptArchiveException(
          location,
          contentOffset + 4,
          "record count " + count + " does not fit in " + content.remaining() + " bytes");
    }
    int[] starts = new int[count];
    int[] lengths = new int[count];
    int n = 0;
    while (n < count) {
      need(content, 4, contentOffset, "length of record " + n);
      int recordLength = content.getInt();
      if (recordLength < 0 || recordLength > content.remaining()) {
        throw new CorruptArchiveException(
            location,
            contentOffset + content.position() - 4,
            "record "
                + n
                + " claims "
                + recordLength
                + " bytes but "
                + content.remaining()
                + " are left in the content");
      }
      starts[n] = contentStart + content.position();
      lengths[n] = recordLength;
      content.position(content.position() + recordLength);
      n++;
    }
    if (content.hasRemaining()) {
      throw new CorruptArchiveException(
          location,
          contentOffset + content.position(),
          content.remaining() + " bytes follow the last record of the content");
    }
    return new LogBlock(
        location,
        start,
        body.length + (long) MAGIC_AND_SIZE,
        schema,
        body,
        bodyOffset,
        Arrays.copyOf(starts, n),
        Arrays.copyOf(lengths, n));
  }

  /** Where a metadata value lies in the block body. */
  private record Entry(int offset, int length) {}

  /**
   * Checks a header or footer map and skips it.
   *
   * @return where its SCHEMA value is (the last one, if repeated), or null if it has none
   */
  private Entry readMetadata(ByteBuffer bb, long bodyOffset, String what)
      throws CorruptArchiveException {
    need(bb, 4, bodyOffset, what + " entry count");
    int count = bb.getInt();
    if (count < 0 || count > bb.remaining() / 8) {
      throw new CorruptArchiveException(
          location,
          bodyOffset + bb.position() - 4,
          what + " entry count " + count + " does not fit in the block");
    }
    Entry schema = null;
    for (int i = 0; i < count; i++) {
      need(bb, 8, bodyOffset, what + " entry");
      int key = bb.getInt();
      if (key < 0 || key > MAX_HEADER_KEY) {
        throw new CorruptArchiveException(
            location, bodyOffset + bb.position() - 4, "unknown " + what + " key " + key);
      }
      int length = bb.getInt();
      if (length < 0 || length > bb.remaining()) {
        throw new CorruptArchiveException(
            location,
            bodyOffset + bb.position() - 4,
            what + " value length " + length + " does not fit in the block");
      }
      if (key == HEADER_SCHEMA) {
        schema = new Entry(bb.arrayOffset() + bb.position(), length);
      }
      bb.position(bb.position() + length);
    }
    return schema;
  }

  /**
   * The writer schema of a block's SCHEMA value. An archive repeats one schema, tens of KB of JSON,
   * in every header: comparing its bytes with the previous block's is far cheaper than decoding and
   * hashing the JSON again for every ten entries.
   */
  private Schema schema(byte[] body, Entry entry, long headerOffset)
      throws CorruptArchiveException {
    int end = entry.offset() + entry.length();
    if (lastSchemaJson != null
        && Arrays.equals(body, entry.offset(), end, lastSchemaJson, 0, lastSchemaJson.length)) {
      return lastSchema;
    }
    Schema schema;
    try {
      schema =
          SchemaCache.parse(
              new String(body, entry.offset(), entry.length(), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw new CorruptArchiveException(
          location, headerOffset, "the block's SCHEMA is not an Avro schema: " + e, e);
    }
    lastSchemaJson = Arrays.copyOfRange(body, entry.offset(), end);
    lastSchema = schema;
    return schema;
  }

  private void need(ByteBuffer bb, int bytes, long base, String what)
      throws CorruptArchiveException {
    if (bb.remaining() < bytes) {
      throw new CorruptArchiveException(
          location, base + bb.position(), "the block ends inside the " + what);
    }
  }
}
