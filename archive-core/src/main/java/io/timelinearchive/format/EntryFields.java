package io.timelinearchive.format;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The fields of a {@code HoodieArchivedMetaEntry} that the archive reads and writes by name (the
 * detail fields are named by {@link EntryDetail}).
 */
public final class EntryFields {
  public static final String COMMIT_TIME = "commitTime";
  public static final String ACTION_TYPE = "actionType";
  public static final String ACTION_STATE = "actionState";
  public static final String STATE_TRANSITION_TIME = "stateTransitionTime";
  public static final String VERSION = "version";

  /**
   * Our extra, last field: the instant file's bytes, zlib-compressed ({@link RawContent}). Hudi's
   * reader resolves against its own 16-field schema and ignores it.
   */
  public static final String DEFLATED_CONTENT = "timelineArchiveDeflatedContent";

  /** What our entries carried in that place before: the instant file's bytes as they were. */
  public static final String RAW_CONTENT = "timelineArchiveRawContent";

  private EntryFields() {}

  /**
   * A field's value, or null when the record's schema has no such field (entries written by other
   * Hudi versions lack some).
   */
  public static Object get(GenericRecord record, String name) {
    Schema.Field field = record.getSchema().getField(name);
    return field == null ? null : record.get(field.pos());
  }
}
