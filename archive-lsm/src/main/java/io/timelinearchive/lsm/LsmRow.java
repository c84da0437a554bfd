package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * One row to write into a history file: one completed instant, as Hudi's {@code
 * HoodieLSMTimelineInstant} holds it. Its {@code version} is always written as 1, the only version
 * Hudi 1.0 writes. Rows read back are {@link LsmHistoryInstant}s; {@link LsmHistoryInstant#row()}
 * turns one into a row again (compaction copies rows so).
 *
 * @param requestedTime the instant's requested time (the row's {@code instantTime}), digits only
 * @param completionTime its completion time; empty only for rows copied from a file that had none
 * @param action the completed action ({@code commit} for a compaction, {@code replacecommit} for a
 *     clustering)
 * @param metadata the bytes of the completed instant file; empty when that file was empty
 * @param plan the bytes of the instant's plan, where it has one
 */
public record LsmRow(
    String requestedTime,
    Optional<String> completionTime,
    String action,
    Optional<ByteBuffer> metadata,
    Optional<ByteBuffer> plan) {

  public LsmRow {
    requireNonNull(requestedTime, "requestedTime is null");
    requireNonNull(completionTime, "completionTime is null");
    requireNonNull(action, "action is null");
    if (!Hudi1Instant.isTime(requestedTime)) {
      throw new IllegalArgumentException("invalid requested time '" + requestedTime + "'");
    }
    completionTime.ifPresent(
        c -> {
          if (!Hudi1Instant.isTime(c)) {
            throw new IllegalArgumentException(
                "invalid completion time '" + c + "' of " + requestedTime);
          }
        });
    if (action.isEmpty()) {
      throw new IllegalArgumentException("the row of " + requestedTime + " has an empty action");
    }
    metadata = requireNonNull(metadata, "metadata is null").map(ByteBuffer::asReadOnlyBuffer);
    plan = requireNonNull(plan, "plan is null").map(ByteBuffer::asReadOnlyBuffer);
  }

  /** A row of a completed instant with its completion time. */
  public LsmRow(
      String requestedTime,
      String completionTime,
      String action,
      Optional<ByteBuffer> metadata,
      Optional<ByteBuffer> plan) {
    this(
        requestedTime,
        Optional.of(requireNonNull(completionTime, "completionTime is null")),
        action,
        metadata,
        plan);
  }

  /** A copy of a buffer's remaining bytes, the buffer left as it was. */
  static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
