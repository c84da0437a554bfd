package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigCheck;
import io.timelinearchive.config.Grammar;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.config.ValueParser.InvalidValueException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code gcs.}-prefixed settings of the GCS backend, validated. Holds no secret: a credentials
 * file is named, never read into this record, so {@link #toString()} is safe to print.
 *
 * @param projectId {@link #PROJECT_ID}; absent, the SDK's discovery applies (environment,
 *     credentials file, gcloud, metadata server), except with {@code noCredentials}, where no
 *     project is looked up
 * @param endpoint {@link #ENDPOINT}, as {@code scheme://host[:port]}; absent, Google's
 * @param credentialsFile {@link #CREDENTIALS_FILE}; absent, Application Default Credentials
 * @param noCredentials {@link #NO_CREDENTIALS}
 * @param batchSize {@link #BATCH_SIZE}
 * @param parallelism {@link #PARALLELISM}
 * @param retries {@link #RETRIES}
 * @param listPageSize {@link #LIST_PAGE_SIZE}
 * @param singleRequestUploadMaxBytes {@link #SINGLE_REQUEST_UPLOAD_MAX_BYTES}
 * @param connectTimeout {@link #CONNECT_TIMEOUT}
 * @param readTimeout {@link #READ_TIMEOUT}
 */
record GcsConfig(
    Optional<String> projectId,
    Optional<URI> endpoint,
    Optional<Path> credentialsFile,
    boolean noCredentials,
    int batchSize,
    int parallelism,
    int retries,
    int listPageSize,
    long singleRequestUploadMaxBytes,
    Duration connectTimeout,
    Duration readTimeout) {

  static final String PREFIX = "gcs.";

  static final Setting<String> PROJECT_ID =
      Setting.text(PREFIX + "project-id")
          .documentedDefault("SDK discovery")
          .doc("the client's project; with gcs.no-credentials=true no project is looked up")
          .build();
  // The client appends /storage/v1, /upload/storage/v1 and /batch/storage/v1 to the root, so a
  // path here would be silently dropped or doubled: refused.
  static final Setting<URI> ENDPOINT =
      Setting.of(PREFIX + "endpoint", Grammar.httpEndpoint(false))
          .documentedDefault("Google's")
          .doc("http(s)://host[:port] of an emulator")
          .build();
  static final Setting<Path> CREDENTIALS_FILE =
      Setting.of(PREFIX + "credentials-file", GcsConfig::readableFile)
          .documentedDefault("Application Default Credentials")
          .doc("a JSON key or external-account file; named here, read only by the client")
          .build();
  static final Setting<Boolean> NO_CREDENTIALS =
      Setting.bool(PREFIX + "no-credentials")
          .defaultValue(false)
          .doc("unauthenticated requests (emulators, public buckets)")
          .build();
  // The JSON API takes at most 100 calls in one batch request.
  static final Setting<Integer> BATCH_SIZE =
      Setting.integer(PREFIX + "batch-size")
          .defaultValue(100)
          .between(1, 100)
          .doc("deletes per batch request")
          .build();
  static final Setting<Integer> PARALLELISM =
      Setting.integer(PREFIX + "parallelism")
          .defaultValue(4)
          .between(1, 64)
          .doc("batch requests in flight")
          .build();
  static final Setting<Integer> RETRIES =
      Setting.integer(PREFIX + "retries")
          .defaultValue(5)
          .between(0, 20)
          .doc("retries after a failed attempt, for every request")
          .build();
  // The JSON API returns at most 1000 objects per page.
  static final Setting<Integer> LIST_PAGE_SIZE =
      Setting.integer(PREFIX + "list-page-size")
          .defaultValue(1000)
          .between(1, 1000)
          .doc("objects per listing page")
          .build();
  static final Setting<Long> SINGLE_REQUEST_UPLOAD_MAX_BYTES =
      Setting.size(PREFIX + "single-request-upload-max-bytes")
          .defaultValue(8L << 20)
          .atLeast(0L)
          .doc("files up to this size are created in one request; larger ones by resumable upload")
          .build();

  // The HTTP transport takes whole milliseconds, and reads 0 as "wait forever": refused.
  static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.duration(PREFIX + "connect-timeout")
          .defaultValue(Duration.ofSeconds(20))
          .between(Duration.ofMillis(1), Duration.ofMillis(Integer.MAX_VALUE))
          .doc("opening a connection, each attempt (the SDK's default)")
          .build();
  static final Setting<Duration> READ_TIMEOUT =
      Setting.duration(PREFIX + "read-timeout")
          .defaultValue(Duration.ofSeconds(20))
          .between(Duration.ofMillis(1), Duration.ofMillis(Integer.MAX_VALUE))
          .doc("waiting for data on an open connection, each attempt (the SDK's default)")
          .build();

  /** Every setting of the GCS backend. */
  static final List<Setting<?>> SETTINGS =
      List.of(
          PROJECT_ID,
          ENDPOINT,
          CREDENTIALS_FILE,
          NO_CREDENTIALS,
          BATCH_SIZE,
          PARALLELISM,
          RETRIES,
          LIST_PAGE_SIZE,
          SINGLE_REQUEST_UPLOAD_MAX_BYTES,
          CONNECT_TIMEOUT,
          READ_TIMEOUT);

  /**
   * {@code gcs.*} is ours alone: a mistyped key would otherwise silently fall back to a default,
   * e.g. real GCS instead of the emulator the user meant.
   */
  static final SettingNamespace NAMESPACE = SettingNamespace.exclusive(PREFIX, SETTINGS);

  GcsConfig {
    requireNonNull(projectId, "projectId is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(credentialsFile, "credentialsFile is null");
    if (noCredentials && credentialsFile.isPresent()) {
      throw new IllegalArgumentException(
          CREDENTIALS_FILE.key() + " and " + NO_CREDENTIALS.key() + "=true exclude each other");
    }
    BATCH_SIZE.checked(batchSize);
    PARALLELISM.checked(parallelism);
    RETRIES.checked(retries);
    LIST_PAGE_SIZE.checked(listPageSize);
    SINGLE_REQUEST_UPLOAD_MAX_BYTES.checked(singleRequestUploadMaxBytes);
    CONNECT_TIMEOUT.checked(requireNonNull(connectTimeout, "connectTimeout is null"));
    READ_TIMEOUT.checked(requireNonNull(readTimeout, "readTimeout is null"));
  }

  /**
   * Reads the {@code gcs.} keys of {@code config}, ignoring every other key.
   *
   * @throws IllegalArgumentException naming the key of a malformed or unknown setting
   */
  static GcsConfig from(Map<String, String> config) {
    requireNonNull(config, "config is null");
    ConfigCheck.check(config, List.of(NAMESPACE));
    return new GcsConfig(
        PROJECT_ID.find(config),
        ENDPOINT.find(config).map(GcsConfig::root),
        CREDENTIALS_FILE.find(config),
        NO_CREDENTIALS.get(config),
        BATCH_SIZE.get(config),
        PARALLELISM.get(config),
        RETRIES.get(config),
        LIST_PAGE_SIZE.get(config),
        SINGLE_REQUEST_UPLOAD_MAX_BYTES.get(config),
        CONNECT_TIMEOUT.get(config),
        READ_TIMEOUT.get(config));
  }

  /** The endpoint as the client's host: {@code http://host:port}, without a trailing slash. */
  private static URI root(URI endpoint) {
    return URI.create(
        endpoint.getScheme().toLowerCase(Locale.ROOT) + "://" + endpoint.getRawAuthority());
  }

  private static Path readableFile(String text) throws InvalidValueException {
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw new InvalidValueException("is not a path", false, e);
    }
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new InvalidValueException("names no readable file");
    }
    return path;
  }
}
