package io.timelinearchive.config;

import io.timelinearchive.config.ValueParser.InvalidValueException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How values are written, the same for every setting of every module: one grammar for numbers, one
 * for booleans, one for durations and one for sizes.
 */
public final class Grammar {
  private static final Pattern DURATION_SHORT =
      Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);
  private static final Pattern SIZE_PATTERN = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|TiB)?");
  private static final String[] SIZE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

  private Grammar() {}

  /** A whole number that fits an int: {@code 20}. */
  public static final ValueParser<Integer> INT =
      text -> {
        try {
          return Integer.parseInt(text);
        } catch (NumberFormatException e) {
          throw new InvalidValueException("is not a whole number");
        }
      };

  /** A whole number that fits a long: {@code 20971520}, as Hudi writes byte counts. */
  public static final ValueParser<Long> LONG =
      text -> {
        try {
          return Long.parseLong(text);
        } catch (NumberFormatException e) {
          throw new InvalidValueException("is not a whole number");
        }
      };

  /**
   * {@code true} or {@code false}, in any case. Hudi reads any other value as false; a typo there
   * would silently change what is archived, so it is refused.
   */
  public static final ValueParser<Boolean> BOOLEAN =
      text -> {
        if (text.equalsIgnoreCase("true")) {
          return true;
        }
        if (text.equalsIgnoreCase("false")) {
          return false;
        }
        throw new InvalidValueException("is not true or false");
      };

  /**
   * {@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d}, or ISO-8601 ({@code PT1H},
   * {@code P2D}); never negative.
   */
  public static final ValueParser<Duration> DURATION =
      text -> {
        Duration duration;
        try {
          Matcher m = DURATION_SHORT.matcher(text);
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
          throw new InvalidValueException("is not a duration such as 7d, 12h, 30m, 45s or PT1H");
        }
        if (duration.isNegative()) {
          throw new InvalidValueException("must not be negative");
        }
        return duration;
      };

  /** Bytes: {@code 1048576}, or with a binary suffix: {@code 512MiB}, {@code 64 KiB}. */
  public static final ValueParser<Long> SIZE =
      text -> {
        Matcher m = SIZE_PATTERN.matcher(text);
        if (m.matches()) {
          try {
            int unit = m.group(2) == null ? 0 : Arrays.asList(SIZE_UNITS).indexOf(m.group(2));
            return Math.multiplyExact(Long.parseLong(m.group(1)), 1L << (10 * unit));
          } catch (NumberFormatException | ArithmeticException e) {
            // too large: reported below
          }
        }
        throw new InvalidValueException(
            "is not a size such as 512MiB (bytes, or with a KiB, MiB, GiB or TiB suffix)");
      };

  /** Text as written (trimmed). */
  public static final ValueParser<String> TEXT = text -> text;

  /** One of {@code type}'s constants, in any case. */
  public static <E extends Enum<E>> ValueParser<E> enumOf(Class<E> type) {
    return text -> {
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equalsIgnoreCase(text)) {
          return constant;
        }
      }
      throw new InvalidValueException(
          "is not one of "
              + Arrays.stream(type.getEnumConstants())
                  .map(Enum::name)
                  .collect(Collectors.joining(", ")));
    };
  }

  /**
   * An {@code http(s)://host[:port]} service endpoint; with {@code pathAllowed}, a path may follow
   * (an emulator's account path). User info is refused without echoing the value: it may hold a
   * password.
   */
  public static ValueParser<URI> httpEndpoint(boolean pathAllowed) {
    return text -> {
      if (text.contains("@")) {
        throw new InvalidValueException(
            "must not hold user info: give credentials in their own settings", true, null);
      }
      URI uri;
      try {
        uri = new URI(text);
      } catch (URISyntaxException e) {
        throw new InvalidValueException("is not a URL", false, e);
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw new InvalidValueException("is not an http(s)://host[:port] URL");
      }
      boolean hasPath = uri.getRawPath() != null && !uri.getRawPath().matches("/?");
      if (uri.getRawQuery() != null || uri.getRawFragment() != null || hasPath && !pathAllowed) {
        throw new InvalidValueException(
            pathAllowed
                ? "must be an http(s)://host[:port][/path] URL without query or fragment"
                : "must be a bare http(s)://host[:port] URL, without path, query or fragment");
      }
      return uri;
    };
  }

  /** A duration written back short, as {@link #DURATION} reads it: {@code 7d}, {@code 90m}. */
  public static String formatDuration(Duration duration) {
    long millis = duration.toMillis();
    if (millis != 0 && millis % 86_400_000L == 0) {
      return millis / 86_400_000L + "d";
    }
    if (millis != 0 && millis % 3_600_000L == 0) {
      return millis / 3_600_000L + "h";
    }
    if (millis != 0 && millis % 60_000L == 0) {
      return millis / 60_000L + "m";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }

  /** A size written back in the largest binary unit that divides it: {@code 16MiB}. */
  public static String formatSize(long bytes) {
    int unit = 0;
    while (unit < SIZE_UNITS.length - 1 && bytes != 0 && bytes % (1L << (10 * (unit + 1))) == 0) {
      unit++;
    }
    return (bytes >> (10 * unit)) + SIZE_UNITS[unit];
  }
}
