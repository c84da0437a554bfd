package io.timelinearchive.storage.s3;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageLocation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The {@code s3} and {@code s3a} schemes: {@code s3://bucket/path}. Settings are read from the
 * {@code s3.} keys of the config map (see the README of this module); credentials come from the
 * SDK's default chain unless {@code s3.access-key} and {@code s3.secret-key} are given.
 */
public final class S3MetaStorageFactory implements MetaStorageFactory {
  private static final Logger LOG = LoggerFactory.getLogger(S3MetaStorageFactory.class);
  private static final Set<String> SCHEMES = Set.of("s3", "s3a");

  @Override
  public Set<String> schemes() {
    return SCHEMES;
  }

  @Override
  public List<SettingNamespace> settingNamespaces() {
    return List.of(S3Config.NAMESPACE);
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) {
    requireNonNull(root, "root is null");
    if (!SCHEMES.contains(root.scheme())) {
      throw new IllegalArgumentException("not an s3 or s3a location: " + root);
    }
    if (root.authority().isEmpty()) {
      throw new IllegalArgumentException(
          "no bucket in " + root + ": expected " + root.scheme() + "://bucket/path");
    }
    S3Config settings = S3Config.parse(config);
    AwsCredentialsProvider credentials = credentials(settings);
    S3RequestCounter counter = new S3RequestCounter();
    S3Client client;
    try {
      client = client(settings, markingFailures(credentials), counter);
    } catch (RuntimeException e) {
      closeQuietly(credentials, e);
      throw e;
    }
    LOG.debug(
        "Opened {}://{} (endpoint {}, region {}, {}, path-style {})",
        root.scheme(),
        root.authority(),
        settings.endpoint().map(Object::toString).orElse("default"),
        settings.region().orElse("default chain"),
        settings.staticKeys().map(Object::toString).orElse("default credentials chain"),
        settings.pathStyleAccess());
    AutoCloseable closeCredentials =
        credentials instanceof AutoCloseable closeable ? closeable : () -> {};
    return new S3MetaStorage(
        client, closeCredentials, root.scheme(), root.authority(), settings, counter);
  }

  /**
   * The requests {@code storage} has sent so far, through the {@link ServiceRequestCounting} every
   * counting storage implements: for one this factory opened, by S3 operation name ({@code
   * GetObject}, {@code PutObject}, {@code DeleteObjects}, {@code ListObjectsV2}, ...), SDK retries
   * included, also through a decorator that forwards the counts; empty for a storage that counts
   * nothing. Take a snapshot before and after a run to count the run alone.
   */
  public static Optional<Map<String, Long>> requestCounts(MetaStorage storage) {
    requireNonNull(storage, "storage is null");
    return storage instanceof ServiceRequestCounting counting
        ? Optional.of(counting.serviceRequests())
        : Optional.empty();
  }

  private static AwsCredentialsProvider credentials(S3Config settings) {
    if (settings.staticKeys().isEmpty()) {
      return DefaultCredentialsProvider.builder().build();
    }
    S3Config.StaticKeys keys = settings.staticKeys().get();
    AwsCredentials credentials =
        keys.sessionToken().isPresent()
            ? AwsSessionCredentials.create(
                keys.accessKey(), keys.secretKey(), keys.sessionToken().get())
            : AwsBasicCredentials.create(keys.accessKey(), keys.secretKey());
    return StaticCredentialsProvider.create(credentials);
  }

  /** {@code provider}, its failures marked so that they read as missing credentials. */
  private static AwsCredentialsProvider markingFailures(AwsCredentialsProvider provider) {
    return () -> {
      try {
        return provider.resolveCredentials();
      } catch (SdkClientException e) {
        throw SdkClientException.create(e.getMessage(), new S3Errors.MissingCredentials(e));
      }
    };
  }

  private static S3Client client(
      S3Config settings, AwsCredentialsProvider credentials, S3RequestCounter counter) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                Apache5HttpClient.builder()
                    .maxConnections(settings.requestParallelism())
                    .connectionTimeout(settings.connectTimeout())
                    .socketTimeout(settings.socketTimeout())
                    .connectionAcquisitionTimeout(settings.connectionAcquisitionTimeout()))
            .credentialsProvider(credentials)
            .forcePathStyle(settings.pathStyleAccess())
            .overrideConfiguration(
                o -> {
                  o.addExecutionInterceptor(counter);
                  o.retryStrategy(r -> r.maxAttempts(settings.maxAttempts()));
                  settings.apiCallTimeout().ifPresent(o::apiCallTimeout);
                  settings.apiCallAttemptTimeout().ifPresent(o::apiCallAttemptTimeout);
                });
    settings.endpoint().ifPresent(builder::endpointOverride);
    // An S3-compatible endpoint rarely cares about the region, but SigV4 needs one.
    settings
        .region()
        .map(Region::of)
        .or(() -> settings.endpoint().map(e -> Region.US_EAST_1))
        .ifPresent(builder::region);
    try {
      return builder.build();
    } catch (SdkClientException e) {
      if (settings.region().isEmpty()) {
        throw new IllegalArgumentException(
            "no AWS region found: set "
                + S3Config.REGION.key()
                + " (or AWS_REGION, or a region in the AWS profile): "
                + e.getMessage(),
            e);
      }
      throw e;
    }
  }

  private static void closeQuietly(AwsCredentialsProvider credentials, Exception failure) {
    if (credentials instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
  }
}
