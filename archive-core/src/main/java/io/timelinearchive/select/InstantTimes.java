package io.timelinearchive.select;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Optional;

/**
 * Instant times as dates, read the way Hudi 0.15's {@code HoodieInstantTimeGenerator} reads them.
 */
final class InstantTimes {
  private static final DateTimeFormatter FORMAT =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyyMMddHHmmss")
          .appendValue(ChronoField.MILLI_OF_SECOND, 3)
          .toFormatter();
  private static final int MILLIS_LENGTH = 17;
  private static final int SECONDS_LENGTH = 14;

  /** A time that sorts after every instant time, so nothing is at or before it. */
  static final String NEVER = "";

  private InstantTimes() {}

  /**
   * The 17-digit form Hudi parses: legacy 14-digit times stand for their last millisecond, and the
   * suffixed times of metadata table services are cut to 17 digits.
   */
  static String normalize(String time) {
    if (time.length() == SECONDS_LENGTH) {
      return time + "999";
    }
    if (time.length() > MILLIS_LENGTH) {
      return time.substring(0, MILLIS_LENGTH);
    }
    return time;
  }

  static Optional<LocalDateTime> parse(String time) {
    try {
      return Optional.of(LocalDateTime.parse(normalize(time), FORMAT));
    } catch (DateTimeException e) {
      return Optional.empty();
    }
  }

  static String format(LocalDateTime time) {
    return FORMAT.format(time);
  }

  /**
   * The newest instant time at least {@code age} old at {@code now}, as written in {@code zone};
   * {@link #NEVER} when that lies before year 1.
   */
  static String cutoff(java.time.Instant now, Duration age, ZoneId zone) {
    try {
      LocalDateTime cutoff = LocalDateTime.ofInstant(now.minus(age), zone);
      return cutoff.getYear() < 1 ? NEVER : format(cutoff);
    } catch (DateTimeException | ArithmeticException e) {
      return NEVER;
    }
  }

  /** Whether {@code time} is at or before {@code cutoff} from {@link #cutoff}. */
  static boolean atOrBefore(String time, String cutoff) {
    return !cutoff.isEmpty() && normalize(time).compareTo(cutoff) <= 0;
  }
}
