package io.timelinearchive.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads typed settings from a config map; every error names the key and the value. */
public final class ConfigValues {
  private static final Pattern SHORT_DURATION = Pattern.compile("^(\\d+)\\s*(ms|s|m|h|d)$");

  private ConfigValues() {}

  public static int intIn(Map<String, String> config, String key, int dflt, int min, int max) {
    return Math.toIntExact(longIn(config, key, dflt, min, max));
  }

  public static long longIn(Map<String, String> config, String key, long dflt, long min, long max) {
    String value = config.get(key);
    if (value == null) {
      return dflt;
    }
    long parsed;
    try {
      parsed = Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw invalid(key, value, "not a whole number");
    }
    if (parsed < min || parsed > max) {
      throw invalid(
          key,
          value,
          max == Long.MAX_VALUE ? "must be at least " + min : "must be " + min + " to " + max);
    }
    return parsed;
  }

  public static boolean bool(Map<String, String> config, String key, boolean dflt) {
    String value = config.get(key);
    if (value == null) {
      return dflt;
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(key, value, "expected true or false");
    };
  }

  public static Duration duration(Map<String, String> config, String key, Duration dflt) {
    return optionalDuration(config, key).orElse(dflt);
  }

  /**
   * A duration written {@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d} or ISO-8601
   * ({@code PT1H}, {@code P7D}); negative durations are refused.
   */
  public static Optional<Duration> optionalDuration(Map<String, String> config, String key) {
    String value = config.get(key);
    if (value == null) {
      return Optional.empty();
    }
    String v = value.strip();
    Matcher m = SHORT_DURATION.matcher(v.toLowerCase(Locale.ROOT));
    Duration d;
    if (m.matches()) {
      long n;
      try {
        n = Long.parseLong(m.group(1));
      } catch (NumberFormatException e) {
        throw invalid(key, value, "number too large");
      }
      d =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
    } else {
      try {
        d = Duration.parse(v);
      } catch (DateTimeParseException e) {
        throw invalid(key, value, "expected a duration such as 30s, 15m, 12h, 7d or PT1H");
      }
    }
    if (d.isNegative()) {
      throw invalid(key, value, "must not be negative");
    }
    return Optional.of(d);
  }

  public static IllegalArgumentException invalid(String key, String value, String why) {
    return new IllegalArgumentException("invalid " + key + " '" + value + "': " + why);
  }
}
