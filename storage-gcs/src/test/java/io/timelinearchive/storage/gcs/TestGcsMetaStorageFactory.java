package io.timelinearchive.storage.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestGcsMetaStorageFactory {
  @TempDir Path temp;

  @Test
  void isFoundByScheme() {
    assertThat(MetaStorages.factoryFor("gs", getClass().getClassLoader()))
        .isInstanceOf(GcsMetaStorageFactory.class);
    assertThat(new GcsMetaStorageFactory().schemes()).containsExactly("gs");
  }

  @Test
  void registersTheGcsSettings() {
    assertThat(new GcsMetaStorageFactory().settingNamespaces())
        .containsExactly(SettingNamespace.exclusive("gcs.", GcsConfig.SETTINGS));
    assertThat(MetaStorages.settingNamespaces(getClass().getClassLoader()))
        .contains(GcsConfig.NAMESPACE);
  }

  @Test
  void rejectsOtherSchemesAndMissingBuckets() {
    GcsMetaStorageFactory factory = new GcsMetaStorageFactory();
    Map<String, String> config = Map.of("gcs.no-credentials", "true");

    assertThatThrownBy(() -> factory.open(StorageLocation.of("s3://bucket/t"), config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a gs location: s3://bucket/t");
    assertThatThrownBy(() -> factory.open(StorageLocation.of("gs:/t"), config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no bucket in gs:///t");
  }

  @Test
  void rejectsBadSettingsBeforeBuildingAClient() {
    assertThatThrownBy(
            () ->
                MetaStorages.open(
                    StorageLocation.of("gs://bucket/t"), Map.of("gcs.retries", "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gcs.retries");
  }

  @Test
  void anUnreadableCredentialsFileFailsWithoutEchoingIt() throws IOException {
    Path key = Files.writeString(temp.resolve("key.json"), "{\"private_key\": \"s3cret\", ");

    assertThatThrownBy(
            () ->
                MetaStorages.open(
                    StorageLocation.of("gs://bucket/t"),
                    Map.of("gcs.credentials-file", key.toString(), "gcs.project-id", "p")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("gcs.credentials-file")
        .satisfies(e -> assertThat(e.toString()).doesNotContain("s3cret"))
        .hasNoCause();
  }

  @Test
  void aCredentialsFileSignsRequests() throws Exception {
    FakeGcsServer server = FakeGcsServer.shared();
    String bucket = server.newBucket("credentials");
    AtomicInteger tokenRequests = new AtomicInteger();
    // The key file's token endpoint, answered here: the service account's signed assertion is
    // exchanged for an access token that the client then sends to the storage endpoint.
    HttpServer tokens =
        HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
    tokens.createContext(
        "/token",
        exchange -> {
          tokenRequests.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              "{\"access_token\":\"token-from-key-file\",\"expires_in\":3600,\"token_type\":\"Bearer\"}"
                  .getBytes(UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    tokens.start();
    try (FaultProxy proxy = server.proxy()) {
      Path key =
          Files.writeString(
              temp.resolve("service-account.json"),
              serviceAccountJson("http://127.0.0.1:" + tokens.getAddress().getPort() + "/token"));
      Map<String, String> config =
          Map.of(
              "gcs.endpoint", proxy.endpoint().toString(),
              "gcs.project-id", "p",
              "gcs.credentials-file", key.toString());
      try (MetaStorage storage = MetaStorages.open(StorageLocation.of("gs://" + bucket), config)) {
        storage.createExclusive(StorageLocation.of("gs://" + bucket + "/f"), new byte[] {1});
      }

      assertThat(tokenRequests.get()).isEqualTo(1);
      assertThat(proxy.requests())
          .isNotEmpty()
          .allSatisfy(r -> assertThat(r.authorization()).isEqualTo("Bearer token-from-key-file"));
    } finally {
      tokens.stop(0);
    }
  }

  @Test
  void noCredentialsSendsNoAuthorization() throws Exception {
    FakeGcsServer server = FakeGcsServer.shared();
    String bucket = server.newBucket("anonymous");
    try (FaultProxy proxy = server.proxy()) {
      try (MetaStorage storage =
          MetaStorages.open(
              StorageLocation.of("gs://" + bucket),
              Map.of("gcs.endpoint", proxy.endpoint().toString(), "gcs.no-credentials", "true"))) {
        storage.createExclusive(StorageLocation.of("gs://" + bucket + "/f"), new byte[] {1});
      }

      assertThat(proxy.requests())
          .isNotEmpty()
          .allSatisfy(r -> assertThat(r.authorization()).isEmpty());
    }
  }

  private static String serviceAccountJson(String tokenUri) throws NoSuchAlgorithmException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    String pem =
        "-----BEGIN PRIVATE KEY-----\\n"
            + Base64.getEncoder()
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\\n-----END PRIVATE KEY-----\\n";
    return "{\"type\":\"service_account\",\"project_id\":\"p\",\"private_key_id\":\"k1\","
        + "\"private_key\":\""
        + pem
        + "\",\"client_email\":\"archiver@p.iam.gserviceaccount.com\",\"client_id\":\"1\","
        + "\"token_uri\":\""
        + tokenUri
        + "\"}";
  }
}
