package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

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
      Map<EntryDetail, Schema> carried = entry.carriedSchemas();
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

  private static byte[] encodeBlock(Schema writer, List<ArchiveEntry> entries) {
    List<byte[]> records = new ArrayList<>(entries.size());
    try (RawContent.BlockDeflater deflater = new RawContent.BlockDeflater()) {
      for (ArchiveEntry entry : entries) {
        byte[] fields = entry.encodedFields();
        ByteBuffer content =
            entry.rawContent().map(c -> deflater.deflate(entry.instant(), c)).orElse(null);
        AvroBytes record =
            new AvroBytes(fields.length + 6 + (content == null ? 0 : content.remaining()));
        record.writeRaw(fields, 0, fields.length);
        // The content's union is [null, bytes].
        if (content == null) {
          record.writeIndex(0);
        } else {
          record.writeIndex(1);
          record.writeLong(content.remaining());
          record.writeRaw(
              content.array(), content.arrayOffset() + content.position(), content.remaining());
        }
        records.add(record.toByteArray());
      }
    }
    return LogBlockCodec.encodeEncodedRecords(writer, records);
  }
}
