package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigCheck;
import io.timelinearchive.config.Grammar;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.config.ValueParser.InvalidValueException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  // S3 takes at most 1000 keys per DeleteObjects and returns at most 1000 keys per list page.
  private static final int MAX_BATCH = 1000;
  // S3's bounds on multipart parts: at least 5 MiB (except the last), at most 5 GiB.
  private static final long MIN_PART = 5L << 20;
  private static final long MAX_PART = 5L << 30;
  // A zero timeout means "wait forever" to the HTTP client: refused, as a value nobody means.
  private static final Duration SHORTEST_TIMEOUT = Duration.ofMillis(1);

  private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*[a-z0-9]");

  static final Setting<URI> ENDPOINT =
      Setting.of(PREFIX + "endpoint", Grammar.httpEndpoint(false))
          .documentedDefault("AWS")
          .doc("an S3-compatible server's http(s)://host[:port] (no path) instead of AWS")
          .build();
  static final Setting<String> REGION =
      Setting.of(PREFIX + "region", S3Config::regionName)
          .documentedDefault("SDK default chain; us-east-1 when s3.endpoint is set")
          .doc("region name, such as eu-west-3; SigV4 signs with it")
          .build();
  static final Setting<Boolean> PATH_STYLE_ACCESS =
      Setting.bool(PREFIX + "path-style-access")
          .defaultValue(false)
          .doc("address buckets as host/bucket instead of bucket.host (most S3-compatible servers)")
          .build();
  static final Setting<String> ACCESS_KEY =
      Setting.text(PREFIX + "access-key")
          .documentedDefault("SDK default credentials chain")
          .doc("static access key id; with s3.secret-key, or neither for the default chain")
          .build();
  static final Setting<String> SECRET_KEY =
      Setting.text(PREFIX + "secret-key")
          .secret()
          .documentedDefault("SDK default credentials chain")
          .doc("static secret access key; with s3.access-key")
          .build();
  static final Setting<String> SESSION_TOKEN =
      Setting.text(PREFIX + "session-token")
          .secret()
          .doc("session token of temporary credentials; only with s3.access-key and s3.secret-key")
          .build();
  static final Setting<Integer> DELETE_BATCH_SIZE =
      Setting.integer(PREFIX + "delete-batch-size")
          .defaultValue(MAX_BATCH)
          .between(1, MAX_BATCH)
          .doc("keys per DeleteObjects, 1 to 1000 (S3 takes at most 1000)")
          .build();
  static final Setting<Integer> LIST_PAGE_SIZE =
      Setting.integer(PREFIX + "list-page-size")
          .defaultValue(MAX_BATCH)
          .between(1, MAX_BATCH)
          .doc("keys per ListObjectsV2 page, 1 to 1000 (S3 returns at most 1000)")
          .build();
  static final Setting<Integer> REQUEST_PARALLELISM =
      Setting.integer(PREFIX + "request-parallelism")
          .defaultValue(16)
          .between(1, 256)
          .doc("1 to 256: HTTP connection pool size and delete batches in flight")
          .build();
  static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.duration(PREFIX + "connect-timeout")
          .defaultValue(Duration.ofSeconds(10))
          .atLeast(SHORTEST_TIMEOUT)
          .doc("opening a connection")
          .build();
  static final Setting<Duration> SOCKET_TIMEOUT =
      Setting.duration(PREFIX + "socket-timeout")
          .defaultValue(Duration.ofSeconds(30))
          .atLeast(SHORTEST_TIMEOUT)
          .doc("waiting for data on an open connection")
          .build();
  static final Setting<Duration> CONNECTION_ACQUISITION_TIMEOUT =
      Setting.duration(PREFIX + "connection-acquisition-timeout")
          .defaultValue(Duration.ofSeconds(60))
          .atLeast(SHORTEST_TIMEOUT)
          .doc("waiting for a pooled connection")
          .build();
  static final Setting<Duration> API_CALL_TIMEOUT =
      Setting.duration(PREFIX + "api-call-timeout")
          .atLeast(SHORTEST_TIMEOUT)
          .doc("one whole call, retries included")
          .build();
  static final Setting<Duration> API_CALL_ATTEMPT_TIMEOUT =
      Setting.duration(PREFIX + "api-call-attempt-timeout")
          .atLeast(SHORTEST_TIMEOUT)
          .doc("one attempt of a call")
          .build();
  static final Setting<Integer> MAX_RETRIES =
      Setting.integer(PREFIX + "max-retries")
          .defaultValue(3)
          .between(0, 20)
          .doc("0 to 20 retries of a failed attempt (attempts = retries + 1, SDK standard backoff)")
          .build();
  static final Setting<Long> MULTIPART_THRESHOLD =
      Setting.size(PREFIX + "multipart-threshold")
          .defaultValue(16L << 20)
          .between(MIN_PART, MAX_PART)
          .doc("5MiB to 5GiB; a larger create is a multipart upload")
          .build();
  static final Setting<Long> PART_SIZE =
      Setting.size(PREFIX + "part-size")
          .defaultValue(8L << 20)
          .between(MIN_PART, MAX_PART)
          .doc("5MiB to 5GiB; the size of each part of a multipart upload but the last")
          .build();

  /** Every {@code s3.} setting, in the order the README lists them. */
  static final List<Setting<?>> SETTINGS =
      List.of(
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

  /** Only this backend writes {@code s3.} keys: any other is a mistake, such as a typo. */
  static final SettingNamespace NAMESPACE = SettingNamespace.exclusive(PREFIX, SETTINGS);

  S3Config {
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(region, "region is null");
    requireNonNull(staticKeys, "staticKeys is null");
    DELETE_BATCH_SIZE.checked(deleteBatchSize);
    LIST_PAGE_SIZE.checked(listPageSize);
    REQUEST_PARALLELISM.checked(requestParallelism);
    CONNECT_TIMEOUT.checked(requireNonNull(connectTimeout, "connectTimeout is null"));
    SOCKET_TIMEOUT.checked(requireNonNull(socketTimeout, "socketTimeout is null"));
    CONNECTION_ACQUISITION_TIMEOUT.checked(
        requireNonNull(connectionAcquisitionTimeout, "connectionAcquisitionTimeout is null"));
    requireNonNull(apiCallTimeout, "apiCallTimeout is null");
    requireNonNull(apiCallAttemptTimeout, "apiCallAttemptTimeout is null");
    MAX_RETRIES.checked(maxRetries);
    MULTIPART_THRESHOLD.checked(multipartThreshold);
    PART_SIZE.checked(partSize);
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
    ConfigCheck.check(config, List.of(NAMESPACE));
    return new S3Config(
        ENDPOINT.find(config),
        REGION.find(config),
        PATH_STYLE_ACCESS.get(config),
        staticKeys(config),
        DELETE_BATCH_SIZE.get(config),
        LIST_PAGE_SIZE.get(config),
        REQUEST_PARALLELISM.get(config),
        CONNECT_TIMEOUT.get(config),
        SOCKET_TIMEOUT.get(config),
        CONNECTION_ACQUISITION_TIMEOUT.get(config),
        API_CALL_TIMEOUT.find(config),
        API_CALL_ATTEMPT_TIMEOUT.find(config),
        MAX_RETRIES.get(config),
        MULTIPART_THRESHOLD.get(config),
        PART_SIZE.get(config));
  }

  int maxAttempts() {
    return maxRetries + 1;
  }

  private static Optional<StaticKeys> staticKeys(Map<String, String> config) {
    Optional<String> accessKey = ACCESS_KEY.find(config);
    Optional<String> secretKey = SECRET_KEY.find(config);
    Optional<String> sessionToken = SESSION_TOKEN.find(config);
    if (accessKey.isPresent() != secretKey.isPresent()) {
      Setting<String> given = accessKey.isPresent() ? ACCESS_KEY : SECRET_KEY;
      Setting<String> missing = accessKey.isPresent() ? SECRET_KEY : ACCESS_KEY;
      throw new IllegalArgumentException(
          given.key()
              + " is set but "
              + missing.key()
              + " is not: give both, or neither to use the default credentials chain");
    }
    if (sessionToken.isPresent() && accessKey.isEmpty()) {
      throw new IllegalArgumentException(
          SESSION_TOKEN.key() + " is set without " + ACCESS_KEY.key() + " and " + SECRET_KEY.key());
    }
    return accessKey.map(a -> new StaticKeys(a, secretKey.orElseThrow(), sessionToken));
  }

  private static String regionName(String text) throws InvalidValueException {
    if (!REGION_NAME.matcher(text).matches()) {
      throw new InvalidValueException("is not a region name such as us-east-1");
    }
    return text;
  }
}
