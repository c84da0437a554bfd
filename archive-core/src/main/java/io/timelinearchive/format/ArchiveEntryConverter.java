package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Turns one instant state file into an archive entry, following Hudi 0.15's archiver
 * (docs/HUDI-FORMAT.md §5): the common fields, the details by action and state, and always the
 * file's bytes (compressed into {@link EntryFields#DEFLATED_CONTENT} as the block is written).
 * Records from Avro instant files are kept as the file encodes them, under the schema embedded in
 * it; JSON commit metadata is encoded as it is parsed. Thread-safe.
 */
public final class ArchiveEntryConverter {
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
   * The entry of one state file, encoded.
   *
   * @param instant what the file's name says
   * @param modificationTime the file's modification time, which becomes stateTransitionTime
   * @param content the file's bytes, which the entry keeps (the caller must not change them)
   * @throws InstantConversionException if the content is not what the instant's file must hold
   */
  public ArchiveEntry convert(
      TimelineInstant instant, java.time.Instant modificationTime, byte[] content)
      throws InstantConversionException {
    requireNonNull(instant, "instant is null");
    requireNonNull(modificationTime, "modificationTime is null");
    requireNonNull(content, "content is null");
    String transition = transitionTime.format(modificationTime);

    // Local file systems and HDFS can leave a 0-byte completed file after a crash: Hudi archives
    // it with the common fields only.
    EntryDetail detail =
        content.length > 0 || !instant.isCompleted() ? detailOf(instant, content) : null;
    if (detail == null) {
      return EntryEncoding.entry(instant, transition, null, null, new byte[0], 0, 0, content);
    }
    try {
      return switch (detail) {
        case COMMIT_METADATA, INFLIGHT_REPLACE_METADATA, REPLACE_COMMIT_METADATA -> {
          AvroBytes record = JSON_RECORD.get();
          record.reset();
          CommitMetadataJson.encode(
              instant, content, detail == EntryDetail.REPLACE_COMMIT_METADATA, record);
          yield EntryEncoding.entry(
              instant,
              transition,
              detail,
              detail.defaultSchema(),
              record.bytes(),
              0,
              record.size(),
              content);
        }
        default -> {
          AvroInstantFiles.Encoded record =
              AvroInstantFiles.readEncoded(instant, detail.defaultSchema(), content);
          yield EntryEncoding.entry(
              instant,
              transition,
              detail,
              record.schema(),
              record.bytes(),
              record.offset(),
              record.length(),
              content);
        }
      };
    } catch (IllegalArgumentException e) {
      throw new InstantConversionException(
          instant, "the record in the file cannot share an archive entry: " + e.getMessage(), e);
    }
  }

  /** One encoding buffer per reading thread: a large commit's record is written into it. */
  private static final ThreadLocal<AvroBytes> JSON_RECORD =
      ThreadLocal.withInitial(() -> new AvroBytes(64 * 1024));

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
      // Hudi 1.x only: a Hudi 0.x timeline, the only one archived into this format, has none
      case CLUSTERING -> null;
    };
  }
}
