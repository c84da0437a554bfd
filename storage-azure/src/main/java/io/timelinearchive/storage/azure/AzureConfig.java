package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigCheck;
import io.timelinearchive.config.Grammar;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.StorageLocation;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    AzureCredentials credentials,
    int deleteBatchSize,
    int deleteParallelism,
    int listPageSize,
    Duration connectTimeout,
    Duration responseTimeout,
    int maxRetries,
    Duration retryDelay) {

  static final String PREFIX = "azure.";

  static final Setting<URI> ENDPOINT =
      Setting.of(PREFIX + "endpoint", Grammar.httpEndpoint(true))
          .documentedDefault("the account's blob endpoint")
          .doc(
              "blob endpoint to use instead of the account's public one, as written (path-style"
                  + " included): an emulator (http://127.0.0.1:10000/devstoreaccount1) or a"
                  + " private endpoint; with it, the location may name the bare account")
          .build();
  static final Setting<String> CONNECTION_STRING =
      Setting.of(PREFIX + "connection-string", AzureCredentials::keyValuePairs)
          .secret()
          .doc(
              "a storage connection string (Key=Value pairs separated by ';'); its BlobEndpoint or"
                  + " UseDevelopmentStorage=true names the endpoint")
          .build();
  static final Setting<String> ACCOUNT_KEY =
      Setting.of(PREFIX + "account-key", AzureCredentials::base64)
          .secret()
          .doc("the account's shared key (Base64)")
          .build();
  static final Setting<String> SAS_TOKEN =
      Setting.of(PREFIX + "sas-token", AzureCredentials::sasToken)
          .secret()
          .doc(
              "a SAS token, with or without its leading '?'; one that cannot sign a blob batch"
                  + " (user-delegation, blob-scoped) makes deletes go one by one")
          .build();

  /** The service refuses a blob batch of more than 256 sub-requests. */
  static final Setting<Integer> DELETE_BATCH_SIZE =
      Setting.integer(PREFIX + "delete-batch-size")
          .defaultValue(256)
          .between(1, 256)
          .doc("blobs per blob batch delete (the service takes at most 256)")
          .build();

  static final Setting<Integer> DELETE_PARALLELISM =
      Setting.integer(PREFIX + "delete-parallelism")
          .defaultValue(8)
          .between(1, 64)
          .doc("single deletes in flight where blob batches are refused")
          .build();
  static final Setting<Integer> LIST_PAGE_SIZE =
      Setting.integer(PREFIX + "list-page-size")
          .defaultValue(5000)
          .between(1, 5000)
          .doc("blobs per List Blobs page (the service returns at most 5000)")
          .build();

  // A zero timeout means "wait forever" to the HTTP client: refused, as a value nobody means.
  static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.duration(PREFIX + "connect-timeout")
          .defaultValue(Duration.ofSeconds(10))
          .atLeast(Duration.ofMillis(1))
          .doc("opening a connection, each attempt (the SDK's default)")
          .build();
  static final Setting<Duration> RESPONSE_TIMEOUT =
      Setting.duration(PREFIX + "response-timeout")
          .defaultValue(Duration.ofSeconds(60))
          .atLeast(Duration.ofMillis(1))
          .doc(
              "waiting for the answer to a sent request, and between its reads, each attempt (the"
                  + " SDK's default)")
          .build();
  static final Setting<Integer> MAX_RETRIES =
      Setting.integer(PREFIX + "max-retries")
          .defaultValue(3)
          .between(0, 20)
          .doc("0 to 20 retries of a failed attempt, exponential backoff (the SDK's default)")
          .build();
  static final Setting<Duration> RETRY_DELAY =
      Setting.duration(PREFIX + "retry-delay")
          .defaultValue(Duration.ofSeconds(4))
          .between(Duration.ofMillis(1), Duration.ofMinutes(2))
          .doc("the first retry's delay, doubled for each next one up to 2m (the SDK's default)")
          .build();

  /** Every {@code azure.} setting, in the order the README lists them. */
  static final List<Setting<?>> SETTINGS =
      List.of(
          ENDPOINT,
          CONNECTION_STRING,
          ACCOUNT_KEY,
          SAS_TOKEN,
          DELETE_BATCH_SIZE,
          DELETE_PARALLELISM,
          LIST_PAGE_SIZE,
          CONNECT_TIMEOUT,
          RESPONSE_TIMEOUT,
          MAX_RETRIES,
          RETRY_DELAY);

  /** Only this backend writes {@code azure.} keys: any other is a mistake. */
  static final SettingNamespace NAMESPACE = SettingNamespace.exclusive(PREFIX, SETTINGS);

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
    DELETE_BATCH_SIZE.checked(deleteBatchSize);
    DELETE_PARALLELISM.checked(deleteParallelism);
    LIST_PAGE_SIZE.checked(listPageSize);
    CONNECT_TIMEOUT.checked(requireNonNull(connectTimeout, "connectTimeout is null"));
    RESPONSE_TIMEOUT.checked(requireNonNull(responseTimeout, "responseTimeout is null"));
    MAX_RETRIES.checked(maxRetries);
    RETRY_DELAY.checked(requireNonNull(retryDelay, "retryDelay is null"));
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
    ConfigCheck.check(config, List.of(NAMESPACE));
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

    Optional<String> endpointOverride = ENDPOINT.find(config).map(AzureConfig::asWritten);
    AzureCredentials credentials = AzureCredentials.from(config);
    Optional<String> endpointInConnectionString = credentials.connectionStringEndpoint();

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
              + ENDPOINT.key());
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
        DELETE_BATCH_SIZE.get(config),
        DELETE_PARALLELISM.get(config),
        LIST_PAGE_SIZE.get(config),
        CONNECT_TIMEOUT.get(config),
        RESPONSE_TIMEOUT.get(config),
        MAX_RETRIES.get(config),
        RETRY_DELAY.get(config));
  }

  /** An endpoint as the client takes it: without a trailing '/'. */
  static String asWritten(URI endpoint) {
    String text = endpoint.toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }
}
