package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * One entry of the archive.
 *
 * @param instant time, action ({@code actionType}) and state ({@code actionState}) of the entry; a
 *     completed compaction reads as a commit, a compaction plan as {@code compaction REQUESTED}
 * @param stateTransitionTime when the state file was written; absent in archives of old Hudi
 *     versions
 * @param entry the whole {@code HoodieArchivedMetaEntry} record under the block's writer schema,
 *     when details were loaded
 * @param rawContent the instant file's bytes, when details were loaded and the entry carries them
 *     (entries written by Hudi do not)
 */
public record ArchivedInstant(
    TimelineInstant instant,
    Optional<String> stateTransitionTime,
    Optional<GenericRecord> entry,
    Optional<ByteBuffer> rawContent) {

  public ArchivedInstant {
    requireNonNull(instant, "instant is null");
    requireNonNull(stateTransitionTime, "stateTransitionTime is null");
    requireNonNull(entry, "entry is null");
    rawContent = requireNonNull(rawContent, "rawContent is null").map(ByteBuffer::asReadOnlyBuffer);
  }

  /** A copy of the instant file's bytes. */
  public Optional<byte[]> rawBytes() {
    return rawContent.map(
        b -> {
          byte[] bytes = new byte[b.remaining()];
          b.duplicate().get(bytes);
          return bytes;
        });
  }
}
