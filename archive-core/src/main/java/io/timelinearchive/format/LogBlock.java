package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * One valid Avro data block of an archive file, as {@link LogBlockReader} found it: its framing is
 * checked, its records are decoded on demand.
 */
public final class LogBlock {
  private final String location;
  private final long offset;
  private final long length;
  private final Schema schema;
  private final byte[] body;
  private final long bodyOffset;
  private final int[] recordStarts;
  private final int[] recordLengths;

  LogBlock(
      String location,
      long offset,
      long length,
      Schema schema,
      byte[] body,
      long bodyOffset,
      int[] recordStarts,
      int[] recordLengths) {
    this.location = requireNonNull(location, "location is null");
    this.offset = offset;
    this.length = length;
    this.schema = requireNonNull(schema, "schema is null");
    this.body = requireNonNull(body, "body is null");
    this.bodyOffset = bodyOffset;
    this.recordStarts = recordStarts;
    this.recordLengths = recordLengths;
  }

  /** The file the block was read from, as errors name it. */
  public String location() {
    return location;
  }

  /** Where the block's magic starts in the file. */
  public long offset() {
    return offset;
  }

  /** The whole block, magic to trailer. */
  public long length() {
    return length;
  }

  public long endOffset() {
    return offset + length;
  }

  /** The writer schema of the header's SCHEMA entry. */
  public Schema schema() {
    return schema;
  }

  public int recordCount() {
    return recordStarts.length;
  }

  /** Where record {@code index}'s Avro bytes start in the file. */
  public long recordOffset(int index) {
    return bodyOffset + recordStarts[index];
  }

  /**
   * Decodes every record, resolved to {@code readerSchema} (which may leave fields out, so that
   * they are skipped rather than built), or under the writer schema when it is null.
   *
   * @throws CorruptArchiveException if a record is not valid Avro of the writer schema
   */
  public List<GenericRecord> records(Schema readerSchema) throws CorruptArchiveException {
    GenericDatumReader<GenericRecord> reader = datumReader(readerSchema);
    List<GenericRecord> records = new ArrayList<>(recordCount());
    for (int i = 0; i < recordCount(); i++) {
      records.add(record(i, reader));
    }
    return records;
  }

  /** A reader from the writer schema to {@code readerSchema} (null: the writer schema). */
  public GenericDatumReader<GenericRecord> datumReader(Schema readerSchema) {
    return new GenericDatumReader<>(schema, readerSchema == null ? schema : readerSchema);
  }

  /**
   * Decodes record {@code index} with {@code reader}, made by {@link #datumReader}.
   *
   * @throws CorruptArchiveException if the record is not valid Avro of the writer schema or does
   *     not fill its length exactly
   */
  public GenericRecord record(int index, GenericDatumReader<GenericRecord> reader)
      throws CorruptArchiveException {
    BoundedBinaryDecoder decoder =
        new BoundedBinaryDecoder(body, recordStarts[index], recordLengths[index]);
    GenericRecord record;
    try {
      record = reader.read(null, decoder);
    } catch (IOException | RuntimeException e) {
      throw new CorruptArchiveException(
          location,
          recordOffset(index),
          "record " + index + " of the block at offset " + offset + " is not valid Avro: " + e,
          e);
    }
    if (!decoder.isEnd()) {
      throw new CorruptArchiveException(
          location,
          recordOffset(index),
          "record "
              + index
              + " of the block at offset "
              + offset
              + " leaves "
              + decoder.remaining()
              + " of its "
              + recordLengths[index]
              + " bytes unread");
    }
    return record;
  }
}
