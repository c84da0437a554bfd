package io.timelinearchive.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.nio.file.AccessDeniedException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * S3Proxy checks SigV4 signatures: requests signed with a wrong key are refused, and the refusal
 * reaches the caller as the SPI's {@link AccessDeniedException} naming the credentials to check.
 */
class TestS3AccessDeniedS3Proxy {
  @Test
  void aWrongSecretKeyIsAccessDeniedNamingTheCredentialSettings() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    StorageLocation file = StorageLocation.of("s3://" + bucket + "/t/.hoodie/hoodie.properties");
    Map<String, String> config = new HashMap<>(server.config());
    config.put(S3Config.SECRET_KEY.key(), "not-the-secret");

    try (MetaStorage storage = MetaStorages.open(StorageLocation.of("s3://" + bucket), config)) {
      assertThatThrownBy(() -> storage.read(file))
          .isInstanceOf(AccessDeniedException.class)
          .satisfies(
              e -> {
                AccessDeniedException denied = (AccessDeniedException) e;
                assertThat(denied.getFile()).isEqualTo(file.toString());
                assertThat(denied.getReason())
                    .contains("SignatureDoesNotMatch")
                    .contains("HTTP 403")
                    .contains("check s3.access-key and s3.secret-key");
              });
    }
  }
}
