package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Encodes archive entries into log blocks. A block's writer schema is the entry schema whose detail
 * unions hold the record schemas its entries carry (the defaults where none does); entries that
 * carry different schemas for one field, or types that clash by name, go to separate blocks. Entry
 * order is kept.
 */
public final class ArchiveBlockEncoder {
  private ArchiveBlockEncoder() {}

  /**
   * The encoded blocks of {@code entries}, in order: one block unless their schemas force more. The
   * archiver calls this with batches of {@code hoodie.commits.archival.batch} entries, which is how
   * Hudi sizes its blocks.
   *
   * @throws IllegalArgumentException if an entry cannot be written under any entry schema
   */
  public static List<byte[]> encode(List<ArchiveEntry> entries) {
    requireNonNull(entries, "entries is null");
    List<byte[]> blocks = new ArrayList<>();
    List<ArchiveEntry> current = new ArrayList<>();
    Map<EntryDetail, Schema> branches = new EnumMap<>(EntryDetail.class);
    Schema writer = ArchiveSchemas.ARCHIVED_META_ENTRY;
    for (ArchiveEntry entry : entries) {
      Map<EntryDetail, Schema> carried = carriedSchemas(entry.record());
      Schema merged = current.isEmpty() ? null : merge(writer, branches, carried);
      if (merged == null) {
        if (!current.isEmpty()) {
          blocks.add(encodeBlock(writer, current));
          current.clear();
        }
        branches.clear();
        try {
          merged = EntrySchemas.entrySchema(carried);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "the entry of " + entry.instant() + " cannot be written: " + e.getMessage(), e);
        }
      }
      branches.putAll(carried);
      writer = merged;
      current.add(entry);
    }
    if (!current.isEmpty()) {
      blocks.add(encodeBlock(writer, current));
    }
    return blocks;
  }

  /** The writer schema with {@code carried} added, or null if they cannot share a block. */
  private static Schema merge(
      Schema writer, Map<EntryDetail, Schema> branches, Map<EntryDetail, Schema> carried) {
    boolean grows = false;
    for (Map.Entry<EntryDetail, Schema> e : carried.entrySet()) {
      Schema present = branches.get(e.getKey());
      if (present == null) {
        grows = true;
      } else if (!present.equals(e.getValue())) {
        return null;
      }
    }
    if (!grows) {
      return writer;
    }
    Map<EntryDetail, Schema> union = new EnumMap<>(EntryDetail.class);
    union.putAll(branches);
    union.putAll(carried);
    try {
      return EntrySchemas.entrySchema(union);
    } catch (IllegalArgumentException clash) {
      return null;
    }
  }

  private static Map<EntryDetail, Schema> carriedSchemas(GenericRecord entry) {
    Map<EntryDetail, Schema> carried = new EnumMap<>(EntryDetail.class);
    for (EntryDetail detail : EntryDetail.values()) {
      if (EntryFields.get(entry, detail.fieldName()) instanceof GenericRecord details) {
        carried.put(detail, details.getSchema());
      }
    }
    return carried;
  }

  private static byte[] encodeBlock(Schema writer, List<ArchiveEntry> entries) {
    List<GenericRecord> records = new ArrayList<>(entries.size());
    for (ArchiveEntry entry : entries) {
      records.add(shaped(entry.record(), writer));
    }
    return LogBlockCodec.encodeAvroDataBlock(writer, records);
  }

  /**
   * The record with the writer's field layout. Entries read back from archives written by Hudi have
   * 16 fields, not our 17; their values are copied by name.
   */
  private static GenericRecord shaped(GenericRecord record, Schema writer) {
    List<Schema.Field> have = record.getSchema().getFields();
    List<Schema.Field> want = writer.getFields();
    boolean sameLayout = have.size() == want.size();
    for (int i = 0; sameLayout && i < want.size(); i++) {
      sameLayout = have.get(i).name().equals(want.get(i).name());
    }
    if (sameLayout) {
      return record;
    }
    GenericRecord copy = new GenericData.Record(writer);
    for (Schema.Field field : want) {
      copy.put(field.pos(), EntryFields.get(record, field.name()));
    }
    return copy;
  }
}
