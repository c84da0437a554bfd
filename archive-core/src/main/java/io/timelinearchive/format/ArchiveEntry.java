package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * One instant state file as an archive entry: the {@code HoodieArchivedMetaEntry} record, whose
 * detail fields hold records under their own schemas (see {@link EntryDetail}).
 */
public record ArchiveEntry(TimelineInstant instant, GenericRecord record) {
  private static final String ENTRY_NAME = ArchiveSchemas.ARCHIVED_META_ENTRY.getFullName();

  public ArchiveEntry {
    requireNonNull(instant, "instant is null");
    requireNonNull(record, "record is null");
    if (!record.getSchema().getFullName().equals(ENTRY_NAME)) {
      throw new IllegalArgumentException(
          "not an archive entry record: " + record.getSchema().getFullName());
    }
  }

  public Optional<String> stateTransitionTime() {
    return Optional.ofNullable(EntryFields.get(record, EntryFields.STATE_TRANSITION_TIME))
        .map(Object::toString);
  }

  /** The instant file's bytes, when the entry carries them (entries Hudi wrote do not). */
  public Optional<byte[]> rawContent() {
    try {
      return RawContent.of(record);
    } catch (java.util.zip.DataFormatException e) {
      throw new IllegalStateException("the raw content of " + instant + " is damaged", e);
    }
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
