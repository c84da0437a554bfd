package io.timelinearchive.storage.s3;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3Proxy per test JVM: in-process, on 127.0.0.1 and a port the OS picks, with its in-memory
 * store and SigV4 authentication, so requests are signed and checked as on S3. Stopped by a
 * shutdown hook when the test JVM ends.
 */
public final class S3ProxyServer implements S3Server {
  private static final Logger LOG = LoggerFactory.getLogger(S3ProxyServer.class);
  private static final String ACCESS_KEY = "s3proxy-test-access";
  private static final String SECRET_KEY = "s3proxy-test-secret";
  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static S3ProxyServer shared;

  private final S3Proxy proxy;
  private final URI endpoint;
  private final S3Client admin;

  private S3ProxyServer(S3Proxy proxy, URI endpoint) {
    this.proxy = proxy;
    this.endpoint = endpoint;
    this.admin =
        S3Client.builder()
            .httpClient(Apache5HttpClient.create())
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
            .build();
  }

  public static synchronized S3ProxyServer shared() {
    if (shared == null) {
      shared = start();
      S3ProxyServer server = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "s3proxy-stop"));
    }
    return shared;
  }

  private static S3ProxyServer start() {
    long started = System.nanoTime();
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(new TransientNio2BlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    try {
      proxy.start();
      while (!"STARTED".equals(proxy.getState())) {
        Thread.sleep(10);
      }
    } catch (Exception e) {
      throw new IllegalStateException("S3Proxy did not start", e);
    }
    URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    LOG.info(
        "S3Proxy {} started at {} in {} ms",
        S3Proxy.class.getPackage().getImplementationVersion(),
        endpoint,
        (System.nanoTime() - started) / 1_000_000);
    return new S3ProxyServer(proxy, endpoint);
  }

  private void stop() {
    admin.close();
    try {
      proxy.stop();
    } catch (Exception e) {
      LOG.warn("S3Proxy did not stop cleanly", e);
    }
  }

  @Override
  public URI endpoint() {
    return endpoint;
  }

  @Override
  public Map<String, String> config() {
    return Map.of(
        S3Config.ENDPOINT.key(),
        endpoint.toString(),
        S3Config.REGION.key(),
        "us-east-1",
        S3Config.PATH_STYLE_ACCESS.key(),
        "true",
        S3Config.ACCESS_KEY.key(),
        ACCESS_KEY,
        S3Config.SECRET_KEY.key(),
        SECRET_KEY,
        // on a busy machine the server is slow, not gone: the CLI's fail-fast 3 s would turn a
        // slow answer into a failed run
        S3Config.CONNECT_TIMEOUT.key(),
        "30s",
        S3Config.SOCKET_TIMEOUT.key(),
        "120s");
  }

  @Override
  public S3Client admin() {
    return admin;
  }

  @Override
  public String newBucket() {
    String bucket = "test-bucket-" + BUCKETS.incrementAndGet();
    admin.createBucket(b -> b.bucket(bucket));
    return bucket;
  }
}
