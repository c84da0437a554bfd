package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a storage points and how it signs in, read from the root location and the {@code azure.}
 * keys. Secrets stay out of {@link #toString()} and out of every message.
 */
record AzureConfig(
    String scheme,
    String authority,
    String account,
    String container,
    String endpoint,
    boolean endpointFromConnectionString,
    Credentials credentials,
    int deleteBatchSize,
    int deleteParallelism,
    int listPageSize) {

  static final String PREFIX = "azure.";
  static final String ENDPOINT = PREFIX + "endpoint";
  static final String CONNECTION_STRING = PREFIX + "connection-string";
  static final String ACCOUNT_KEY = PREFIX + "account-key";
  static final String SAS_TOKEN = PREFIX + "sas-token";
  static final String DELETE_BATCH_SIZE = PREFIX + "delete-batch-size";
  static final String DELETE_PARALLELISM = PREFIX + "delete-parallelism";
  static final String LIST_PAGE_SIZE = PREFIX + "list-page-size";

  static final Set<String> KEYS =
      Set.of(
          ENDPOINT,
          CONNECTION_STRING,
          ACCOUNT_KEY,
          SAS_TOKEN,
          DELETE_BATCH_SIZE,
          DELETE_PARALLELISM,
          LIST_PAGE_SIZE);

  /** The service refuses a blob batch of more than 256 sub-requests. */
  static final int MAX_DELETE_BATCH_SIZE = 256;

  static final int MAX_LIST_PAGE_SIZE = 5000;

  private static final Set<String> SCHEMES = Set.of("abfs", "abfss", "wasb", "wasbs");
  // account.dfs.core.windows.net, account.blob.core.chinacloudapi.cn, ...
  private static final Pattern SERVICE_HOST =
      Pattern.compile("([a-z0-9]{3,24})\\.(?:dfs|blob)\\.([a-z0-9.-]+)");
  private static final Pattern ACCOUNT = Pattern.compile("[a-z0-9]{3,24}");
  private static final Pattern CONTAINER =
      Pattern.compile("\\$root|\\$web|[a-z0-9](?:[a-z0-9]|-(?!-)){1,61}[a-z0-9]");

  AzureConfig {
    requireNonNull(scheme, "scheme is null");
    requireNonNull(authority, "authority is null");
    requireNonNull(account, "account is null");
    requireNonNull(container, "container is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(credentials, "credentials is null");
  }

  /** How requests are signed; the secret never leaves this record through {@code toString}. */
  record Credentials(Kind kind, String secret) {
    enum Kind {
      CONNECTION_STRING,
      ACCOUNT_KEY,
      SAS_TOKEN,
      DEFAULT_CHAIN
    }

    Credentials {
      requireNonNull(kind, "kind is null");
      if ((kind == Kind.DEFAULT_CHAIN) != (secret == null)) {
        throw new IllegalArgumentException("a secret goes with every kind but DEFAULT_CHAIN");
      }
    }

    @Override
    public String toString() {
      return kind.name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Reads {@code abfs[s]://container@account.dfs.core.windows.net/path} or {@code
   * wasb[s]://container@account.blob.core.windows.net/path} and the {@code azure.} settings. Both
   * host forms are accepted with every scheme, and requests always go to the blob endpoint. With
   * {@code azure.endpoint} (an emulator or a private endpoint) the host may be the bare account
   * name, and the endpoint is used as written, path-style included ({@code
   * http://127.0.0.1:10000/devstoreaccount1}).
   *
   * @throws IllegalArgumentException naming the location or the key that is invalid
   */
  static AzureConfig from(StorageLocation root, Map<String, String> config) {
    requireNonNull(root, "root is null");
    requireNonNull(config, "config is null");
    for (String key : config.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        throw new IllegalArgumentException(
            "unknown setting " + key + "; known " + PREFIX + " settings: " + new TreeSet<>(KEYS));
      }
    }
    if (!SCHEMES.contains(root.scheme())) {
      throw new IllegalArgumentException(
          "not an Azure location: " + root + "; expected one of " + SCHEMES);
    }
    int at = root.authority().indexOf('@');
    if (at < 0) {
      throw new IllegalArgumentException(
          "invalid Azure location "
              + root
              + ": expected "
              + root.scheme()
              + "://container@account.blob.core.windows.net/path");
    }
    String container = root.authority().substring(0, at);
    String host = root.authority().substring(at + 1).toLowerCase(Locale.ROOT);
    if (!CONTAINER.matcher(container).matches()) {
      throw new IllegalArgumentException(
          "invalid container name '"
              + container
              + "' in "
              + root
              + ": 3 to 63 lower-case letters, digits and single hyphens");
    }

    Optional<String> endpointOverride = setting(config, ENDPOINT).map(e -> parseEndpoint(e));
    Credentials credentials = credentials(config);
    Optional<String> endpointInConnectionString =
        credentials.kind() == Credentials.Kind.CONNECTION_STRING
            ? connectionStringEndpoint(credentials.secret())
            : Optional.empty();

    String account;
    String endpoint;
    Matcher matcher = SERVICE_HOST.matcher(host);
    if (matcher.matches()) {
      account = matcher.group(1);
      endpoint = "https://" + account + ".blob." + matcher.group(2);
    } else if (ACCOUNT.matcher(host).matches()
        && (endpointOverride.isPresent() || endpointInConnectionString.isPresent())) {
      account = host;
      endpoint = null;
    } else {
      throw new IllegalArgumentException(
          "invalid Azure host '"
              + host
              + "' in "
              + root
              + ": expected account.dfs.<suffix> or account.blob.<suffix>, or a bare account name"
              + " with "
              + ENDPOINT);
    }
    // An explicit endpoint wins; then one named by the connection string (an emulator, a private
    // link); then the public blob endpoint of the account. abfs:// and wasb:// name plain HTTP in
    // Hadoop, but TLS is used anyway: the service requires it by default and keys sign requests.
    boolean fromConnectionString = false;
    if (endpointOverride.isPresent()) {
      endpoint = endpointOverride.get();
    } else if (endpointInConnectionString.isPresent()) {
      endpoint = endpointInConnectionString.get();
      fromConnectionString = true;
    }

    return new AzureConfig(
        root.scheme(),
        root.authority(),
        account,
        container,
        endpoint,
        fromConnectionString,
        credentials,
        intSetting(config, DELETE_BATCH_SIZE, MAX_DELETE_BATCH_SIZE, 1, MAX_DELETE_BATCH_SIZE),
        intSetting(config, DELETE_PARALLELISM, 8, 1, 64),
        intSetting(config, LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE, 1, MAX_LIST_PAGE_SIZE));
  }

  private static Credentials credentials(Map<String, String> config) {
    Optional<String> connectionString = setting(config, CONNECTION_STRING);
    Optional<String> accountKey = setting(config, ACCOUNT_KEY);
    Optional<String> sasToken = setting(config, SAS_TOKEN);
    int given =
        (connectionString.isPresent() ? 1 : 0)
            + (accountKey.isPresent() ? 1 : 0)
            + (sasToken.isPresent() ? 1 : 0);
    if (given > 1) {
      throw new IllegalArgumentException(
          "give at most one of "
              + CONNECTION_STRING
              + ", "
              + ACCOUNT_KEY
              + " and "
              + SAS_TOKEN
              + "; without any, the default Azure credential chain is used");
    }
    if (connectionString.isPresent()) {
      if (!connectionString.get().contains("=")) {
        throw new IllegalArgumentException(
            "invalid " + CONNECTION_STRING + ": expected Key=Value pairs separated by ';'");
      }
      return new Credentials(Credentials.Kind.CONNECTION_STRING, connectionString.get());
    }
    if (accountKey.isPresent()) {
      try {
        Base64.getDecoder().decode(accountKey.get());
      } catch (IllegalArgumentException e) {
        // the decoder's message quotes a character of the key; leave it out
        throw new IllegalArgumentException("invalid " + ACCOUNT_KEY + ": not Base64", null);
      }
      return new Credentials(Credentials.Kind.ACCOUNT_KEY, accountKey.get());
    }
    if (sasToken.isPresent()) {
      String token = sasToken.get().startsWith("?") ? sasToken.get().substring(1) : sasToken.get();
      if (!token.contains("sig=")) {
        throw new IllegalArgumentException(
            "invalid " + SAS_TOKEN + ": a SAS token holds a 'sig=' parameter");
      }
      return new Credentials(Credentials.Kind.SAS_TOKEN, token);
    }
    return new Credentials(Credentials.Kind.DEFAULT_CHAIN, null);
  }

  private static String parseEndpoint(String text) {
    String trimmed = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    try {
      URI uri = new URI(trimmed);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getQuery() != null
          || uri.getFragment() != null) {
        throw new IllegalArgumentException(
            "invalid " + ENDPOINT + " '" + text + "': expected http(s)://host[:port][/account]");
      }
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "invalid " + ENDPOINT + " '" + text + "': " + e.getMessage(), e);
    }
    return trimmed;
  }

  /** The blob endpoint a connection string names itself, if any. */
  private static Optional<String> connectionStringEndpoint(String connectionString) {
    for (String pair : connectionString.split(";")) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String key = pair.substring(0, eq).strip();
      String value = pair.substring(eq + 1).strip();
      if (key.equalsIgnoreCase("BlobEndpoint") && !value.isEmpty()) {
        return Optional.of(parseEndpoint(value));
      }
      if (key.equalsIgnoreCase("UseDevelopmentStorage") && value.equalsIgnoreCase("true")) {
        return Optional.of("http://127.0.0.1:10000/devstoreaccount1");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> setting(Map<String, String> config, String key) {
    String value = config.get(key);
    if (value == null) {
      return Optional.empty();
    }
    String stripped = value.strip();
    if (stripped.isEmpty()) {
      throw new IllegalArgumentException(key + " is empty");
    }
    return Optional.of(stripped);
  }

  private static int intSetting(
      Map<String, String> config, String key, int defaultValue, int min, int max) {
    Optional<String> text = setting(config, key);
    if (text.isEmpty()) {
      return defaultValue;
    }
    int value;
    try {
      value = Integer.parseInt(text.get());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          key + " must be a whole number, got '" + text.get() + "'", e);
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          key + " must be between " + min + " and " + max + ", got " + value);
    }
    return value;
  }
}
