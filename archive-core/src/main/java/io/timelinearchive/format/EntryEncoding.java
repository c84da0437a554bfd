package io.timelinearchive.format;

import io.timelinearchive.timeline.TimelineInstant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Writes an entry's 16 Hudi fields in Avro's binary encoding from its parts, without a record:
 * every field of {@code HoodieArchivedMetaEntry} is a union with null, so each is the index of its
 * branch, then the value if not null. The detail record comes already encoded.
 */
final class EntryEncoding {
  /** What a field of the entry holds. */
  private enum Role {
    COMMIT_TIME,
    ACTION_TYPE,
    ACTION_STATE,
    STATE_TRANSITION_TIME,
    DETAIL,
    NULL
  }

  /** A field of the entry: its name, role, and the branches of null and its value in its union. */
  private record FieldBranches(String name, Role role, int nullBranch, int valueBranch) {
    static FieldBranches of(Schema.Field field) {
      List<Schema> types = field.schema().getTypes();
      int nullBranch = -1;
      int valueBranch = -1;
      for (int i = 0; i < types.size(); i++) {
        if (types.get(i).getType() == Schema.Type.NULL) {
          nullBranch = i;
        } else {
          valueBranch = i;
        }
      }
      Role role =
          switch (field.name()) {
            case EntryFields.COMMIT_TIME -> Role.COMMIT_TIME;
            case EntryFields.ACTION_TYPE -> Role.ACTION_TYPE;
            case EntryFields.ACTION_STATE -> Role.ACTION_STATE;
            case EntryFields.STATE_TRANSITION_TIME -> Role.STATE_TRANSITION_TIME;
            default ->
                Arrays.stream(EntryDetail.values())
                        .anyMatch(d -> d.fieldName().equals(field.name()))
                    ? Role.DETAIL
                    : Role.NULL;
          };
      return new FieldBranches(field.name(), role, nullBranch, valueBranch);
    }
  }

  private static final FieldBranches[] HUDI_FIELDS =
      ArchiveSchemas.HUDI_ARCHIVED_META_ENTRY.getFields().stream()
          .map(FieldBranches::of)
          .toArray(FieldBranches[]::new);

  private EntryEncoding() {}

  /**
   * The entry of one instant state file.
   *
   * @param detail the detail field the file fills, or null for none
   * @param detailSchema the record schema of the detail, or null for none
   * @param detailBytes holds the detail record in Avro's binary encoding, from {@code offset} for
   *     {@code length} bytes
   * @throws IllegalArgumentException if the detail's schema cannot share an entry schema
   */
  static ArchiveEntry entry(
      TimelineInstant instant,
      String stateTransitionTime,
      EntryDetail detail,
      Schema detailSchema,
      byte[] detailBytes,
      int offset,
      int length,
      byte[] rawContent) {
    Map<EntryDetail, Schema> carried = detail == null ? Map.of() : Map.of(detail, detailSchema);
    Schema schema = EntrySchemas.entrySchema(carried);
    AvroBytes out = new AvroBytes(length + 96);
    for (FieldBranches field : HUDI_FIELDS) {
      String value =
          switch (field.role()) {
            case COMMIT_TIME -> instant.time();
            case ACTION_TYPE -> instant.action().actionName();
            case ACTION_STATE -> instant.state().name();
            case STATE_TRANSITION_TIME -> stateTransitionTime;
            case DETAIL, NULL -> null;
          };
      if (value != null) {
        out.writeIndex(field.valueBranch());
        out.writeString(value);
      } else if (field.role() == Role.DETAIL
          && detail != null
          && field.name().equals(detail.fieldName())) {
        out.writeIndex(field.valueBranch());
        out.writeRaw(detailBytes, offset, length);
      } else {
        // Hudi never sets the entry's version, so it writes null rather than the default 1.
        out.writeIndex(field.nullBranch());
      }
    }
    return ArchiveEntry.encoded(
        instant, carried, schema, out.toByteArray(), stateTransitionTime, Optional.of(rawContent));
  }
}
