package io.timelinearchive.archive.read;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What {@link ArchivedTimeline} loads: instants whose time lies in [{@code fromTime}, {@code
 * toTime}] (inclusive; times compare as strings, as Hudi's do), with or without their details.
 *
 * @param fromTime the earliest instant time to load, if any
 * @param toTime the latest instant time to load, if any
 * @param details whether to decode each entry's record and raw bytes; without, only the metadata
 *     (time, action, state, transition time) is decoded and the rest skipped
 */
public record ArchiveReadOptions(
    Optional<String> fromTime, Optional<String> toTime, boolean details) {

  /**
   * @param fromTime the earliest instant time to load, if any
   * @param toTime the latest instant time to load, if any
   * @param details whether to decode each entry's record and raw bytes
   * @throws IllegalArgumentException if {@code fromTime} is after {@code toTime}
   */
  public ArchiveReadOptions {
    requireNonNull(fromTime, "fromTime is null");
    requireNonNull(toTime, "toTime is null");
    if (fromTime.isPresent() && toTime.isPresent() && fromTime.get().compareTo(toTime.get()) > 0) {
      throw new IllegalArgumentException(
          "invalid time range: from " + fromTime.get() + " is after to " + toTime.get());
    }
  }

  /**
   * Every instant, with details.
   *
   * @return the options
   */
  public static ArchiveReadOptions all() {
    return new ArchiveReadOptions(Optional.empty(), Optional.empty(), true);
  }

  /**
   * Every instant, metadata only.
   *
   * @return the options
   */
  public static ArchiveReadOptions metadataOnly() {
    return new ArchiveReadOptions(Optional.empty(), Optional.empty(), false);
  }

  /**
   * These options limited to times from {@code from} to {@code to}, both inclusive.
   *
   * @param from the earliest instant time
   * @param to the latest instant time
   * @return the limited options
   * @throws IllegalArgumentException if {@code from} is after {@code to}
   */
  public ArchiveReadOptions between(String from, String to) {
    return new ArchiveReadOptions(
        Optional.of(requireNonNull(from, "from is null")),
        Optional.of(requireNonNull(to, "to is null")),
        details);
  }

  /**
   * These options with or without details.
   *
   * @param withDetails whether to decode each entry's record and raw bytes
   * @return the changed options
   */
  public ArchiveReadOptions withDetails(boolean withDetails) {
    return new ArchiveReadOptions(fromTime, toTime, withDetails);
  }

  /**
   * Whether an instant at {@code time} is in the range.
   *
   * @param time an instant time
   * @return true if the range includes it
   */
  public boolean includes(String time) {
    return fromTime.map(from -> time.compareTo(from) >= 0).orElse(true)
        && toTime.map(to -> time.compareTo(to) <= 0).orElse(true);
  }

  boolean hasRange() {
    return fromTime.isPresent() || toTime.isPresent();
  }
}
