package io.timelinearchive.storage.gcs;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code gcs.}-prefixed settings of the GCS backend, validated. Holds no secret: a credentials
 * file is named, never read into this record, so {@link #toString()} is safe to print.
 *
 * @param projectId the project of the client; absent, the SDK's discovery applies (environment,
 *     credentials file, gcloud, metadata server), except with {@code noCredentials}, where no
 *     project is looked up
 * @param endpoint a JSON API root such as {@code http://127.0.0.1:4443} for an emulator; absent,
 *     Google's
 * @param credentialsFile a JSON key or external-account file; absent, Application Default
 *     Credentials
 * @param noCredentials send requests unauthenticated (emulators, public buckets)
 * @param batchSize deletes per batch request; the JSON API takes at most 100
 * @param parallelism batch requests in flight at once
 * @param retries retries after a failed attempt, for every request
 * @param listPageSize objects asked for per listing page
 * @param singleRequestUploadMaxBytes files up to this size are created with one multipart request;
 *     larger ones with a resumable upload
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
    int singleRequestUploadMaxBytes) {

  static final String PREFIX = "gcs.";
  static final String PROJECT_ID = PREFIX + "project-id";
  static final String ENDPOINT = PREFIX + "endpoint";
  static final String CREDENTIALS_FILE = PREFIX + "credentials-file";
  static final String NO_CREDENTIALS = PREFIX + "no-credentials";
  static final String BATCH_SIZE = PREFIX + "batch-size";
  static final String PARALLELISM = PREFIX + "parallelism";
  static final String RETRIES = PREFIX + "retries";
  static final String LIST_PAGE_SIZE = PREFIX + "list-page-size";
  static final String SINGLE_REQUEST_UPLOAD_MAX_BYTES = PREFIX + "single-request-upload-max-bytes";

  static final int MAX_BATCH_SIZE = 100;
  static final int MAX_LIST_PAGE_SIZE = 1000;

  private static final Set<String> KEYS =
      Set.of(
          PROJECT_ID,
          ENDPOINT,
          CREDENTIALS_FILE,
          NO_CREDENTIALS,
          BATCH_SIZE,
          PARALLELISM,
          RETRIES,
          LIST_PAGE_SIZE,
          SINGLE_REQUEST_UPLOAD_MAX_BYTES);

  GcsConfig {
    requireNonNull(projectId, "projectId is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(credentialsFile, "credentialsFile is null");
    if (noCredentials && credentialsFile.isPresent()) {
      throw new IllegalArgumentException(
          CREDENTIALS_FILE + " and " + NO_CREDENTIALS + "=true exclude each other");
    }
    checkRange(BATCH_SIZE, batchSize, 1, MAX_BATCH_SIZE);
    checkRange(PARALLELISM, parallelism, 1, 64);
    checkRange(RETRIES, retries, 0, 20);
    checkRange(LIST_PAGE_SIZE, listPageSize, 1, MAX_LIST_PAGE_SIZE);
    checkRange(SINGLE_REQUEST_UPLOAD_MAX_BYTES, singleRequestUploadMaxBytes, 0, Integer.MAX_VALUE);
  }

  /**
   * Reads the {@code gcs.} keys of {@code config}, ignoring every other key.
   *
   * @throws IllegalArgumentException naming the key of a missing, malformed or unknown setting
   */
  static GcsConfig from(Map<String, String> config) {
    requireNonNull(config, "config is null");
    Set<String> unknown = new TreeSet<>();
    for (String key : config.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      // A mistyped key would otherwise silently fall back to a default, e.g. real GCS instead
      // of the emulator the user meant.
      throw new IllegalArgumentException(
          "unknown setting(s) " + unknown + "; the GCS backend reads " + new TreeSet<>(KEYS));
    }
    return new GcsConfig(
        text(config, PROJECT_ID),
        text(config, ENDPOINT).map(GcsConfig::parseEndpoint),
        text(config, CREDENTIALS_FILE).map(GcsConfig::parseCredentialsFile),
        bool(config, NO_CREDENTIALS, false),
        integer(config, BATCH_SIZE, MAX_BATCH_SIZE),
        integer(config, PARALLELISM, 4),
        integer(config, RETRIES, 5),
        integer(config, LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE),
        integer(config, SINGLE_REQUEST_UPLOAD_MAX_BYTES, 8 << 20));
  }

  private static Optional<String> text(Map<String, String> config, String key) {
    String value = config.get(key);
    if (value == null) {
      return Optional.empty();
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(key + " is blank");
    }
    return Optional.of(value.strip());
  }

  private static boolean bool(Map<String, String> config, String key, boolean defaultValue) {
    Optional<String> value = text(config, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    return switch (value.get().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              key + " must be true or false, not '" + value.get() + "'");
    };
  }

  private static int integer(Map<String, String> config, String key, int defaultValue) {
    Optional<String> value = text(config, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(value.get());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer, not '" + value.get() + "'", e);
    }
  }

  private static void checkRange(String key, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          key + " must be between " + min + " and " + max + ", not " + value);
    }
  }

  private static URI parseEndpoint(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(ENDPOINT + " is not a URL: '" + text + "'", e);
    }
    if (uri.getRawUserInfo() != null) {
      // Not echoed: user info may hold a password.
      throw new IllegalArgumentException(ENDPOINT + " must not hold user info");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw new IllegalArgumentException(
          ENDPOINT + " must be an http or https URL with a host, not '" + text + "'");
    }
    if (uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || !(uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getPath().equals("/"))) {
      // The client appends /storage/v1, /upload/storage/v1 and /batch/storage/v1 to the root.
      throw new IllegalArgumentException(
          ENDPOINT + " must be a bare scheme://host[:port], not '" + text + "'");
    }
    return URI.create(scheme + "://" + uri.getRawAuthority());
  }

  private static Path parseCredentialsFile(String text) {
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(CREDENTIALS_FILE + " is not a path: '" + text + "'", e);
    }
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new IllegalArgumentException(
          CREDENTIALS_FILE + " names no readable file: '" + text + "'");
    }
    return path;
  }
}
