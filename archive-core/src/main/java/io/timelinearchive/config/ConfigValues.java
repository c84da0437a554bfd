package io.timelinearchive.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads typed settings from a config map. Every error is an {@link IllegalArgumentException} whose
 * message names the key and the value as written, e.g. {@code hoodie.keep.min.commits='ten' is not
 * a whole number}; range checks are the caller's.
 */
public final class ConfigValues {
  private static final Pattern SHORT_DURATION =
      Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);

  private ConfigValues() {}

  /** The value of {@code key}, trimmed, if set. */
  public static Optional<String> value(Map<String, String> config, String key) {
    String value = config.get(key);
    return value == null ? Optional.empty() : Optional.of(value.trim());
  }

  public static int intValue(Map<String, String> config, String key, int defaultValue) {
    return value(config, key).map(v -> parseInt(key, v)).orElse(defaultValue);
  }

  public static OptionalInt optionalInt(Map<String, String> config, String key) {
    Optional<String> value = value(config, key);
    return value.isEmpty() ? OptionalInt.empty() : OptionalInt.of(parseInt(key, value.get()));
  }

  public static long longValue(Map<String, String> config, String key, long defaultValue) {
    Optional<String> value = value(config, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.get());
    } catch (NumberFormatException e) {
      throw invalid(key, value.get(), "is not a whole number", e);
    }
  }

  /**
   * {@code true} or {@code false} in any case. Hudi reads any other value as false; a typo there
   * would silently change what is archived, so we refuse it.
   */
  public static boolean booleanValue(Map<String, String> config, String key, boolean defaultValue) {
    Optional<String> value = value(config, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    if (value.get().equalsIgnoreCase("true")) {
      return true;
    }
    if (value.get().equalsIgnoreCase("false")) {
      return false;
    }
    throw invalid(key, value.get(), "is not true or false", null);
  }

  public static <E extends Enum<E>> E enumValue(
      Map<String, String> config, String key, Class<E> type, E defaultValue) {
    Optional<String> value = value(config, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(value.get())) {
        return constant;
      }
    }
    String known =
        Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
    throw invalid(key, value.get(), "is not one of " + known, null);
  }

  /**
   * A duration written {@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d} or in
   * ISO-8601 ({@code PT1H}); negative durations are refused.
   */
  public static Optional<Duration> duration(Map<String, String> config, String key) {
    Optional<String> value = value(config, key);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    String text = value.get();
    Duration duration;
    try {
      Matcher m = SHORT_DURATION.matcher(text);
      if (m.matches()) {
        long amount = Long.parseLong(m.group(1));
        duration =
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
              case "ms" -> Duration.ofMillis(amount);
              case "s" -> Duration.ofSeconds(amount);
              case "m" -> Duration.ofMinutes(amount);
              case "h" -> Duration.ofHours(amount);
              default -> Duration.ofDays(amount);
            };
      } else {
        duration = Duration.parse(text);
      }
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw invalid(key, text, "is not a duration such as 7d, 12h, 30m, 45s or PT1H", e);
    }
    if (duration.isNegative()) {
      throw invalid(key, text, "must not be negative", null);
    }
    return Optional.of(duration);
  }

  /** {@code key='value' why}. */
  public static IllegalArgumentException invalid(
      String key, String value, String why, Throwable cause) {
    return new IllegalArgumentException(key + "='" + value + "' " + why, cause);
  }

  private static int parseInt(String key, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw invalid(key, value, "is not a whole number", e);
    }
  }
}
