package io.timelinearchive.storage.s3;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * LocalStack's S3 in a container started by Testcontainers; test classes using it are annotated
 * {@code @Testcontainers(disabledWithoutDocker = true)} and are skipped where Docker is absent.
 */
final class LocalStackServer implements S3Server {
  // LocalStack 4 implements S3 conditional writes (If-None-Match: * on PUT and on completion).
  static final DockerImageName IMAGE = DockerImageName.parse("localstack/localstack:4.4.0");
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private final LocalStackContainer container;
  private S3Client admin;

  LocalStackServer(LocalStackContainer container) {
    this.container = container;
  }

  static LocalStackContainer container() {
    return new LocalStackContainer(IMAGE).withServices(LocalStackContainer.Service.S3);
  }

  @Override
  public URI endpoint() {
    return container.getEndpoint();
  }

  @Override
  public Map<String, String> config() {
    return Map.of(
        S3Config.ENDPOINT.key(), endpoint().toString(),
        S3Config.REGION.key(), container.getRegion(),
        S3Config.PATH_STYLE_ACCESS.key(), "true",
        S3Config.ACCESS_KEY.key(), container.getAccessKey(),
        S3Config.SECRET_KEY.key(), container.getSecretKey());
  }

  @Override
  public synchronized S3Client admin() {
    if (admin == null) {
      admin =
          S3Client.builder()
              .httpClient(Apache5HttpClient.create())
              .endpointOverride(endpoint())
              .region(Region.of(container.getRegion()))
              .forcePathStyle(true)
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(
                          container.getAccessKey(), container.getSecretKey())))
              .build();
    }
    return admin;
  }

  @Override
  public String newBucket() {
    String bucket = "localstack-bucket-" + BUCKETS.incrementAndGet();
    admin().createBucket(b -> b.bucket(bucket));
    return bucket;
  }
}
