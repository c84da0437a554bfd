package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Turns one instant state file into an archive entry, following Hudi 0.15's archiver
 * (docs/HUDI-FORMAT.md §5): the common fields, the details by action and state, and always the
 * file's bytes (compressed into {@link EntryFields#DEFLATED_CONTENT} as the block is written).
 * Records from Avro instant files are kept as read, under the schema embedded in the file.
 * Thread-safe.
 */
public final class ArchiveEntryConverter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TIME_PATTERN = "yyyyMMddHHmmssSSS";

  private final DateTimeFormatter transitionTime;

  private ArchiveEntryConverter(ZoneId zone) {
    this.transitionTime =
        DateTimeFormatter.ofPattern(TIME_PATTERN).withZone(requireNonNull(zone, "zone is null"));
  }

  /** State transition times in the JVM's default zone, as Hudi writes them by default. */
  public static ArchiveEntryConverter create() {
    return new ArchiveEntryConverter(ZoneId.systemDefault());
  }

  /** State transition times in {@code zone} (Hudi's {@code hoodie.table.timeline.timezone}). */
  public static ArchiveEntryConverter inZone(ZoneId zone) {
    return new ArchiveEntryConverter(zone);
  }

  /**
   * The entry of one state file.
   *
   * @param instant what the file's name says
   * @param modificationTime the file's modification time, which becomes stateTransitionTime
   * @param content the file's bytes
   * @throws InstantConversionException if the content is not what the instant's file must hold
   */
  public ArchiveEntry convert(
      TimelineInstant instant, java.time.Instant modificationTime, byte[] content)
      throws InstantConversionException {
    requireNonNull(instant, "instant is null");
    requireNonNull(modificationTime, "modificationTime is null");
    requireNonNull(content, "content is null");

    EntryDetail detail = null;
    GenericRecord details = null;
    // Local file systems and HDFS can leave a 0-byte completed file after a crash: Hudi archives
    // it with the common fields only.
    if (content.length > 0 || !instant.isCompleted()) {
      detail = detailOf(instant, content);
      if (detail != null) {
        details = detailsOf(instant, detail, content);
        if (details == null) {
          detail = null;
        }
      }
    }

    Schema schema;
    try {
      schema =
          detail == null
              ? ArchiveSchemas.ARCHIVED_META_ENTRY
              : EntrySchemas.entrySchema(Map.of(detail, details.getSchema()));
    } catch (IllegalArgumentException e) {
      throw new InstantConversionException(
          instant, "the record in the file cannot share an archive entry: " + e.getMessage(), e);
    }
    GenericRecord entry = new GenericData.Record(schema);
    entry.put(EntryFields.COMMIT_TIME, instant.time());
    entry.put(EntryFields.ACTION_TYPE, instant.action().actionName());
    entry.put(EntryFields.ACTION_STATE, instant.state().name());
    entry.put(EntryFields.STATE_TRANSITION_TIME, transitionTime.format(modificationTime));
    // Hudi never sets the entry's version, so it writes null rather than the default 1.
    entry.put(EntryFields.VERSION, null);
    if (detail != null) {
      entry.put(detail.fieldName(), details);
    }
    return new ArchiveEntry(instant, entry, Optional.of(content.clone()));
  }

  /** Which detail field the file fills, or null for none (see the table in §5). */
  private static EntryDetail detailOf(TimelineInstant instant, byte[] content) {
    State state = instant.state();
    return switch (instant.action()) {
      case COMMIT, DELTA_COMMIT -> EntryDetail.COMMIT_METADATA;
      case REPLACE_COMMIT ->
          switch (state) {
            case REQUESTED -> content.length > 0 ? EntryDetail.REQUESTED_REPLACE_METADATA : null;
            case INFLIGHT -> content.length > 0 ? EntryDetail.INFLIGHT_REPLACE_METADATA : null;
            case COMPLETED -> EntryDetail.REPLACE_COMMIT_METADATA;
          };
      // Old tables may have empty pending clean files.
      case CLEAN ->
          state == State.COMPLETED
              ? EntryDetail.CLEAN_METADATA
              : content.length > 0 ? EntryDetail.CLEANER_PLAN : null;
      case ROLLBACK -> state == State.COMPLETED ? EntryDetail.ROLLBACK_METADATA : null;
      case SAVEPOINT -> state == State.COMPLETED ? EntryDetail.SAVEPOINT_METADATA : null;
      case COMPACTION, LOG_COMPACTION ->
          state == State.REQUESTED && content.length > 0 ? EntryDetail.COMPACTION_PLAN : null;
      // Hudi never archives these; should one be archived, the raw bytes keep its content.
      case INDEXING -> state == State.COMPLETED ? EntryDetail.INDEX_COMMIT_METADATA : null;
      case RESTORE, SCHEMA_COMMIT -> null;
    };
  }

  private static GenericRecord detailsOf(
      TimelineInstant instant, EntryDetail detail, byte[] content)
      throws InstantConversionException {
    return switch (detail) {
      case COMMIT_METADATA, INFLIGHT_REPLACE_METADATA ->
          CommitMetadataJson.commitMetadata(instant, json(instant, content));
      case REPLACE_COMMIT_METADATA ->
          CommitMetadataJson.replaceCommitMetadata(instant, json(instant, content));
      default -> AvroInstantFiles.read(instant, detail.defaultSchema(), content);
    };
  }

  /** The JSON tree, or null for an empty file (which Hudi reads as empty metadata). */
  private static JsonNode json(TimelineInstant instant, byte[] content)
      throws InstantConversionException {
    if (content.length == 0) {
      return null;
    }
    try {
      JsonNode root = JSON.readTree(content);
      if (root == null || root.isMissingNode()) {
        throw new InstantConversionException(instant, "the file holds no JSON value");
      }
      return root;
    } catch (JsonProcessingException e) {
      throw new InstantConversionException(
          instant, "the file is not valid JSON commit metadata: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new InstantConversionException(instant, "cannot read the JSON: " + e.getMessage(), e);
    }
  }
}
