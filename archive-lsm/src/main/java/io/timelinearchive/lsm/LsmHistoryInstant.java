package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.State;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * One row of a history file, Hudi's {@code HoodieLSMTimelineInstant}: one completed instant (one
 * row per instant, not per state).
 *
 * @param requestedTime the row's {@code instantTime}
 * @param completionTime its {@code completionTime}
 * @param action its {@code action}: the completed action ({@code commit} for a compaction, {@code
 *     replacecommit} for a clustering)
 * @param metadata its {@code metadata}: the bytes of the completed instant file (absent when that
 *     file was empty, or when details were not loaded)
 * @param plan its {@code plan}: the bytes of the pending instant's plan (a clean's, a compaction's,
 *     a replacecommit's or clustering's requested or inflight file); absent when there was none, or
 *     when details were not loaded
 * @param version its {@code version}, 1 for every row Hudi 1.0 writes
 * @param file the history file the row was read from
 */
public record LsmHistoryInstant(
    String requestedTime,
    Optional<String> completionTime,
    String action,
    Optional<ByteBuffer> metadata,
    Optional<ByteBuffer> plan,
    int version,
    StorageLocation file) {

  public LsmHistoryInstant {
    requireNonNull(requestedTime, "requestedTime is null");
    requireNonNull(completionTime, "completionTime is null");
    requireNonNull(action, "action is null");
    metadata = requireNonNull(metadata, "metadata is null").map(ByteBuffer::asReadOnlyBuffer);
    plan = requireNonNull(plan, "plan is null").map(ByteBuffer::asReadOnlyBuffer);
    requireNonNull(file, "file is null");
  }

  /** The row as a completed instant of the timeline. */
  public Hudi1Instant instant() {
    return new Hudi1Instant(requestedTime, action, State.COMPLETED, completionTime);
  }

  /** The row as written again: what compaction copies into a file of the next layer. */
  public LsmRow row() {
    return new LsmRow(requestedTime, completionTime, action, metadata, plan);
  }

  /** A copy of the metadata bytes. */
  public Optional<byte[]> metadataBytes() {
    return metadata.map(LsmHistoryInstant::copy);
  }

  /** A copy of the plan bytes. */
  public Optional<byte[]> planBytes() {
    return plan.map(LsmHistoryInstant::copy);
  }

  private static byte[] copy(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    return bytes;
  }
}
