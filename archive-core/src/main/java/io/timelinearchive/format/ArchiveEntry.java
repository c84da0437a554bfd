package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * One instant state file as an archive entry, held encoded: the {@code HoodieArchivedMetaEntry}
 * record's first 16 fields (Hudi's) in Avro's binary encoding, under the entry schema whose detail
 * union holds the record schema the entry carries (see {@link EntryDetail}), and the file's bytes,
 * which {@link ArchiveBlockEncoder} compresses into the last field, {@link
 * EntryFields#DEFLATED_CONTENT}, as it writes the block (see {@link RawContent}). Entries are
 * encoded as they are read, in parallel, so that writing a block is joining bytes.
 */
public final class ArchiveEntry {
  private final TimelineInstant instant;
  private final Optional<EntryDetail> detail;
  private final Map<EntryDetail, Schema> carried;
  private final Schema schema;
  private final byte[] encoded;
  private final Optional<String> stateTransitionTime;
  private final Optional<byte[]> rawContent;

  private ArchiveEntry(
      TimelineInstant instant,
      Map<EntryDetail, Schema> carried,
      Schema schema,
      byte[] encoded,
      Optional<String> stateTransitionTime,
      Optional<byte[]> rawContent) {
    this.instant = requireNonNull(instant, "instant is null");
    this.carried = carried;
    this.detail = firstOf(carried);
    this.schema = requireNonNull(schema, "schema is null");
    this.encoded = requireNonNull(encoded, "encoded is null");
    this.stateTransitionTime = requireNonNull(stateTransitionTime, "stateTransitionTime is null");
    this.rawContent = requireNonNull(rawContent, "rawContent is null");
  }

  private static Optional<EntryDetail> firstOf(Map<EntryDetail, Schema> carried) {
    for (EntryDetail d : EntryDetail.values()) {
      if (carried.containsKey(d)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /** An entry of encoded fields, made by {@link EntryEncoding}. */
  static ArchiveEntry encoded(
      TimelineInstant instant,
      Map<EntryDetail, Schema> carried,
      Schema schema,
      byte[] encoded,
      String stateTransitionTime,
      Optional<byte[]> rawContent) {
    return new ArchiveEntry(
        instant, carried, schema, encoded, Optional.of(stateTransitionTime), rawContent);
  }

  /**
   * The entry of a {@code HoodieArchivedMetaEntry} record of any version (Hudi's 16 fields or
   * fewer, or ours): its fields are copied by name.
   *
   * @param rawContent the instant file's bytes; empty for an entry without them (as Hudi writes)
   * @throws IllegalArgumentException if it is not an archive entry record, or cannot be written
   */
  public static ArchiveEntry of(
      TimelineInstant instant, GenericRecord record, Optional<byte[]> rawContent) {
    requireNonNull(record, "record is null");
    String name = record.getSchema().getFullName();
    if (!name.equals(ArchiveSchemas.ARCHIVED_META_ENTRY.getFullName())) {
      throw new IllegalArgumentException("not an archive entry record: " + name);
    }
    Map<EntryDetail, Schema> carried = new EnumMap<>(EntryDetail.class);
    for (EntryDetail d : EntryDetail.values()) {
      if (EntryFields.get(record, d.fieldName()) instanceof GenericRecord details) {
        carried.put(d, details.getSchema());
      }
    }
    Schema schema = EntrySchemas.entrySchema(carried);
    GenericRecord shaped = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      shaped.put(field.pos(), EntryFields.get(record, field.name()));
    }
    shaped.put(EntryFields.DEFLATED_CONTENT, null);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
    try {
      new GenericDatumWriter<GenericRecord>(schema).write(shaped, encoder);
    } catch (IOException e) {
      throw new UncheckedIOException("in-memory write failed", e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the entry of " + instant + " cannot be written: " + e, e);
    }
    byte[] all = bytes.toByteArray();
    // The last field, the content, is null: one byte, its union's branch, which the block adds.
    Object transition = EntryFields.get(record, EntryFields.STATE_TRANSITION_TIME);
    return new ArchiveEntry(
        instant,
        Map.copyOf(carried),
        schema,
        Arrays.copyOf(all, all.length - 1),
        Optional.ofNullable(transition).map(Object::toString),
        rawContent);
  }

  /** An entry without the file's bytes. */
  public static ArchiveEntry of(TimelineInstant instant, GenericRecord record) {
    return of(instant, record, Optional.empty());
  }

  public TimelineInstant instant() {
    return instant;
  }

  /** The instant file's bytes; empty for an entry without them (as Hudi writes). */
  public Optional<byte[]> rawContent() {
    return rawContent;
  }

  public Optional<String> stateTransitionTime() {
    return stateTransitionTime;
  }

  /** The detail record this entry carries, if any. */
  public Optional<EntryDetail> detail() {
    return detail;
  }

  /** The record schemas of the details this entry carries (Hudi's entries carry one at most). */
  Map<EntryDetail, Schema> carriedSchemas() {
    return carried;
  }

  /** How many bytes Hudi's 16 fields take encoded: most of what the entry takes in a block. */
  public int encodedLength() {
    return encoded.length;
  }

  /** Hudi's 16 fields in Avro's binary encoding, under {@link #schema()} without its last. */
  byte[] encodedFields() {
    return encoded;
  }

  /** The entry schema this entry is encoded under (its detail union holds the carried schema). */
  Schema schema() {
    return schema;
  }

  /** The entry as a record, decoded (its content field null): for reading it, not for speed. */
  public GenericRecord record() {
    byte[] whole = Arrays.copyOf(encoded, encoded.length + 1); // the null content's branch
    try {
      return new GenericDatumReader<GenericRecord>(schema)
          .read(null, DecoderFactory.get().binaryDecoder(whole, null));
    } catch (IOException e) {
      throw new UncheckedIOException("the entry of " + instant + " does not decode", e);
    }
  }

  @Override
  public String toString() {
    return "ArchiveEntry[" + instant + ", " + detail.map(Enum::name).orElse("no detail") + "]";
  }
}
