package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * One instant state file as an archive entry: the {@code HoodieArchivedMetaEntry} record, whose
 * detail fields hold records under their own schemas (see {@link EntryDetail}), and the file's
 * bytes, which {@link ArchiveBlockEncoder} compresses into the record's {@link
 * EntryFields#DEFLATED_CONTENT} as it writes the block (see {@link RawContent}).
 *
 * @param rawContent the instant file's bytes; empty for an entry without them (as Hudi writes)
 */
public record ArchiveEntry(
    TimelineInstant instant, GenericRecord record, Optional<byte[]> rawContent) {
  private static final String ENTRY_NAME = ArchiveSchemas.ARCHIVED_META_ENTRY.getFullName();

  public ArchiveEntry {
    requireNonNull(instant, "instant is null");
    requireNonNull(record, "record is null");
    requireNonNull(rawContent, "rawContent is null");
    if (!record.getSchema().getFullName().equals(ENTRY_NAME)) {
      throw new IllegalArgumentException(
          "not an archive entry record: " + record.getSchema().getFullName());
    }
  }

  /** An entry without the file's bytes. */
  public ArchiveEntry(TimelineInstant instant, GenericRecord record) {
    this(instant, record, Optional.empty());
  }

  public Optional<String> stateTransitionTime() {
    return Optional.ofNullable(EntryFields.get(record, EntryFields.STATE_TRANSITION_TIME))
        .map(Object::toString);
  }

  /** The detail record this entry carries, if any. */
  public Optional<EntryDetail> detail() {
    for (EntryDetail detail : EntryDetail.values()) {
      if (EntryFields.get(record, detail.fieldName()) != null) {
        return Optional.of(detail);
      }
    }
    return Optional.empty();
  }
}
