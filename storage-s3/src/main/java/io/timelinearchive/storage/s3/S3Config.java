package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code s3.*} settings of a storage, parsed and validated. Messages name the key and, except
 * for secrets, the value; {@link #toString()} never shows a secret.
 */
record S3Config(
    Optional<URI> endpoint,
    Optional<String> region,
    boolean pathStyleAccess,
    Optional<StaticKeys> staticKeys,
    int deleteBatchSize,
    int listPageSize,
    int requestParallelism,
    Duration connectTimeout,
    Duration socketTimeout,
    Duration connectionAcquisitionTimeout,
    Optional<Duration> apiCallTimeout,
    Optional<Duration> apiCallAttemptTimeout,
    int maxRetries,
    long multipartThreshold,
    long partSize) {

  static final String PREFIX = "s3.";
  static final String ENDPOINT = "s3.endpoint";
  static final String REGION = "s3.region";
  static final String PATH_STYLE_ACCESS = "s3.path-style-access";
  static final String ACCESS_KEY = "s3.access-key";
  static final String SECRET_KEY = "s3.secret-key";
  static final String SESSION_TOKEN = "s3.session-token";
  static final String DELETE_BATCH_SIZE = "s3.delete-batch-size";
  static final String LIST_PAGE_SIZE = "s3.list-page-size";
  static final String REQUEST_PARALLELISM = "s3.request-parallelism";
  static final String CONNECT_TIMEOUT = "s3.connect-timeout";
  static final String SOCKET_TIMEOUT = "s3.socket-timeout";
  static final String CONNECTION_ACQUISITION_TIMEOUT = "s3.connection-acquisition-timeout";
  static final String API_CALL_TIMEOUT = "s3.api-call-timeout";
  static final String API_CALL_ATTEMPT_TIMEOUT = "s3.api-call-attempt-timeout";
  static final String MAX_RETRIES = "s3.max-retries";
  static final String MULTIPART_THRESHOLD = "s3.multipart-threshold";
  static final String PART_SIZE = "s3.part-size";

  static final Set<String> KEYS =
      Set.of(
          ENDPOINT,
          REGION,
          PATH_STYLE_ACCESS,
          ACCESS_KEY,
          SECRET_KEY,
          SESSION_TOKEN,
          DELETE_BATCH_SIZE,
          LIST_PAGE_SIZE,
          REQUEST_PARALLELISM,
          CONNECT_TIMEOUT,
          SOCKET_TIMEOUT,
          CONNECTION_ACQUISITION_TIMEOUT,
          API_CALL_TIMEOUT,
          API_CALL_ATTEMPT_TIMEOUT,
          MAX_RETRIES,
          MULTIPART_THRESHOLD,
          PART_SIZE);

  private static final Set<String> SECRETS = Set.of(SECRET_KEY, SESSION_TOKEN);

  // S3 takes at most 1000 keys per DeleteObjects and returns at most 1000 keys per list page.
  static final int MAX_BATCH = 1000;
  // S3's bounds on multipart parts: at least 5 MiB (except the last), at most 5 GiB.
  static final long MIN_PART = 5L << 20;
  static final long MAX_PART = 5L << 30;

  private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*[a-z0-9]");
  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|B|KiB|MiB|GiB)");

  S3Config {
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(region, "region is null");
    requireNonNull(staticKeys, "staticKeys is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(socketTimeout, "socketTimeout is null");
    requireNonNull(connectionAcquisitionTimeout, "connectionAcquisitionTimeout is null");
    requireNonNull(apiCallTimeout, "apiCallTimeout is null");
    requireNonNull(apiCallAttemptTimeout, "apiCallAttemptTimeout is null");
  }

  /** Static credentials; never printed. */
  record StaticKeys(String accessKey, String secretKey, Optional<String> sessionToken) {
    StaticKeys {
      requireNonNull(accessKey, "accessKey is null");
      requireNonNull(secretKey, "secretKey is null");
      requireNonNull(sessionToken, "sessionToken is null");
    }

    @Override
    public String toString() {
      return sessionToken.isPresent() ? "static session credentials" : "static credentials";
    }
  }

  /**
   * Reads the {@code s3.} keys of {@code config}; other keys are ignored.
   *
   * @throws IllegalArgumentException naming the key of an unknown or invalid setting
   */
  static S3Config parse(Map<String, String> config) {
    requireNonNull(config, "config is null");
    Set<String> unknown = new TreeSet<>();
    for (String key : config.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "unknown S3 setting(s) "
              + String.join(", ", unknown)
              + "; known: "
              + String.join(", ", new TreeSet<>(KEYS)));
    }
    Settings s = new Settings(config);

    Optional<String> accessKey = s.text(ACCESS_KEY);
    Optional<String> secretKey = s.text(SECRET_KEY);
    Optional<String> sessionToken = s.text(SESSION_TOKEN);
    if (accessKey.isPresent() != secretKey.isPresent()) {
      throw new IllegalArgumentException(
          (accessKey.isPresent() ? ACCESS_KEY : SECRET_KEY)
              + " is set but "
              + (accessKey.isPresent() ? SECRET_KEY : ACCESS_KEY)
              + " is not: give both, or neither to use the default credentials chain");
    }
    if (sessionToken.isPresent() && accessKey.isEmpty()) {
      throw new IllegalArgumentException(
          SESSION_TOKEN + " is set without " + ACCESS_KEY + " and " + SECRET_KEY);
    }
    Optional<StaticKeys> keys =
        accessKey.map(a -> new StaticKeys(a, secretKey.orElseThrow(), sessionToken));

    return new S3Config(
        s.text(ENDPOINT).map(v -> endpoint(ENDPOINT, v)),
        s.text(REGION).map(v -> region(REGION, v)),
        s.bool(PATH_STYLE_ACCESS, false),
        keys,
        s.integer(DELETE_BATCH_SIZE, 1, MAX_BATCH, MAX_BATCH),
        s.integer(LIST_PAGE_SIZE, 1, MAX_BATCH, MAX_BATCH),
        s.integer(REQUEST_PARALLELISM, 1, 256, 16),
        s.duration(CONNECT_TIMEOUT).orElse(Duration.ofSeconds(10)),
        s.duration(SOCKET_TIMEOUT).orElse(Duration.ofSeconds(30)),
        s.duration(CONNECTION_ACQUISITION_TIMEOUT).orElse(Duration.ofSeconds(60)),
        s.duration(API_CALL_TIMEOUT),
        s.duration(API_CALL_ATTEMPT_TIMEOUT),
        s.integer(MAX_RETRIES, 0, 20, 3),
        s.size(MULTIPART_THRESHOLD, MIN_PART, MAX_PART, 16L << 20),
        s.size(PART_SIZE, MIN_PART, MAX_PART, 8L << 20));
  }

  int maxAttempts() {
    return maxRetries + 1;
  }

  private static URI endpoint(String key, String value) {
    // An endpoint with user info may carry a password: then the value is never echoed.
    String shown = value.contains("@") ? "" : " '" + value + "'";
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("invalid " + key + shown + ": not a URI");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException(
          "invalid " + key + shown + ": expected http://host[:port] or https://host[:port]");
    }
    if (value.contains("@") || uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          "invalid " + key + ": user info is not allowed in the endpoint; use " + ACCESS_KEY);
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("invalid " + key + shown + ": no host");
    }
    if ((uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/"))
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "invalid " + key + shown + ": no path, query or fragment allowed");
    }
    return uri;
  }

  private static String region(String key, String value) {
    if (!REGION_NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "invalid " + key + " '" + value + "': expected a region name such as us-east-1");
    }
    return value;
  }

  /** Typed reads of one config map; blank values count as unset. */
  private record Settings(Map<String, String> config) {

    Optional<String> text(String key) {
      String value = config.get(key);
      if (value == null || value.isBlank()) {
        return Optional.empty();
      }
      return Optional.of(value.strip());
    }

    private String shown(String key, String value) {
      return SECRETS.contains(key) ? "" : " '" + value + "'";
    }

    boolean bool(String key, boolean fallback) {
      Optional<String> value = text(key);
      if (value.isEmpty()) {
        return fallback;
      }
      return switch (value.get().toLowerCase(Locale.ROOT)) {
        case "true" -> true;
        case "false" -> false;
        default ->
            throw new IllegalArgumentException(
                "invalid " + key + shown(key, value.get()) + ": expected true or false");
      };
    }

    int integer(String key, int min, int max, int fallback) {
      Optional<String> value = text(key);
      if (value.isEmpty()) {
        return fallback;
      }
      try {
        int parsed = Integer.parseInt(value.get());
        if (parsed >= min && parsed <= max) {
          return parsed;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          "invalid "
              + key
              + shown(key, value.get())
              + ": expected an integer from "
              + min
              + " to "
              + max);
    }

    Optional<Duration> duration(String key) {
      Optional<String> value = text(key);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      Duration parsed = null;
      Matcher m = SHORT_DURATION.matcher(value.get());
      try {
        if (m.matches()) {
          long n = Long.parseLong(m.group(1));
          parsed =
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              };
        } else {
          parsed = Duration.parse(value.get());
        }
      } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
        parsed = null;
      }
      if (parsed == null || parsed.isNegative() || parsed.isZero()) {
        throw new IllegalArgumentException(
            "invalid "
                + key
                + shown(key, value.get())
                + ": expected a positive duration such as 500ms, 30s, 5m or PT30S");
      }
      return Optional.of(parsed);
    }

    long size(String key, long min, long max, long fallback) {
      Optional<String> value = text(key);
      if (value.isEmpty()) {
        return fallback;
      }
      Matcher m = SIZE.matcher(value.get());
      if (m.matches()) {
        try {
          long n = Long.parseLong(m.group(1));
          long scale =
              switch (m.group(2)) {
                case "KiB" -> 1L << 10;
                case "MiB" -> 1L << 20;
                case "GiB" -> 1L << 30;
                default -> 1L;
              };
          long bytes = Math.multiplyExact(n, scale);
          if (bytes >= min && bytes <= max) {
            return bytes;
          }
        } catch (NumberFormatException | ArithmeticException e) {
          // reported below
        }
      }
      throw new IllegalArgumentException(
          "invalid "
              + key
              + shown(key, value.get())
              + ": expected a size from 5MiB to 5GiB, in bytes or with a KiB, MiB or GiB suffix");
    }
  }
}
