package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobContainerClient;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.nio.file.AccessDeniedException;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Azurite checks shared-key signatures: requests signed with another key are refused, and the
 * refusal reaches the caller as the SPI's {@link AccessDeniedException} naming the credential
 * settings to check.
 */
@ExtendWith(Azurite.Extension.class)
class TestAzureAccessDeniedAzurite {
  @Test
  void aWrongAccountKeyIsAccessDeniedNamingTheCredentialSettings() throws Exception {
    BlobContainerClient container = Azurite.get().newContainer();
    StorageLocation root =
        StorageLocation.of(
            "abfs://" + container.getBlobContainerName() + "@" + Azurite.ACCOUNT + "/t");
    StorageLocation file = root.resolve(".hoodie/hoodie.properties");
    String otherKey = Base64.getEncoder().encodeToString(new byte[64]);
    Map<String, String> config =
        Map.of(
            AzureConfig.ENDPOINT.key(),
            Azurite.get().endpoint(),
            AzureConfig.ACCOUNT_KEY.key(),
            otherKey);

    try (MetaStorage storage = MetaStorages.open(root, config)) {
      assertThatThrownBy(() -> storage.read(file))
          .isInstanceOf(AccessDeniedException.class)
          .satisfies(
              e -> {
                AccessDeniedException denied = (AccessDeniedException) e;
                assertThat(denied.getFile()).isEqualTo(file.toString());
                assertThat(denied.getReason())
                    .contains("403")
                    .contains(
                        "check azure.connection-string, azure.account-key or azure.sas-token");
              });
    } finally {
      container.delete();
    }
  }
}
