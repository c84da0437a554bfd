package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.config.Setting;
import io.timelinearchive.storage.StorageLocation;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestAzureConfig {
  private static final String KEY = Azurite.KEY;

  @ParameterizedTest
  @ValueSource(strings = {"abfs", "abfss", "wasb", "wasbs"})
  void everySchemeTalksToTheBlobEndpoint(String scheme) {
    for (String service : new String[] {"dfs", "blob"}) {
      AzureConfig config =
          AzureConfig.from(
              StorageLocation.of(
                  scheme + "://tables@myaccount." + service + ".core.windows.net/db/t1"),
              Map.of());

      assertThat(config.account()).isEqualTo("myaccount");
      assertThat(config.container()).isEqualTo("tables");
      assertThat(config.endpoint()).isEqualTo("https://myaccount.blob.core.windows.net");
      assertThat(config.scheme()).isEqualTo(scheme);
      assertThat(config.credentials().kind()).isEqualTo(AzureCredentials.Kind.DEFAULT_CHAIN);
    }
  }

  @Test
  void otherCloudsKeepTheirSuffix() {
    AzureConfig config =
        AzureConfig.from(
            StorageLocation.of("abfss://data@acct.dfs.core.chinacloudapi.cn/x"), Map.of());

    assertThat(config.endpoint()).isEqualTo("https://acct.blob.core.chinacloudapi.cn");
  }

  @Test
  void endpointOverrideIsUsedAsWritten() {
    AzureConfig config =
        AzureConfig.from(
            StorageLocation.of("wasb://data@devstoreaccount1/x"),
            Map.of(AzureConfig.ENDPOINT.key(), "http://127.0.0.1:10000/devstoreaccount1/"));

    assertThat(config.account()).isEqualTo("devstoreaccount1");
    assertThat(config.endpoint()).isEqualTo("http://127.0.0.1:10000/devstoreaccount1");
  }

  @Test
  void bareAccountNeedsAnEndpoint() {
    assertThatThrownBy(() -> AzureConfig.from(StorageLocation.of("abfs://data@acct/x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("azure.endpoint");
  }

  @Test
  void connectionStringMayNameTheEndpoint() {
    AzureConfig config =
        AzureConfig.from(
            StorageLocation.of("abfs://data@devstoreaccount1/x"),
            Map.of(
                AzureConfig.CONNECTION_STRING.key(),
                "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                    + KEY
                    + ";BlobEndpoint=http://127.0.0.1:1234/devstoreaccount1;"));

    assertThat(config.endpoint()).isEqualTo("http://127.0.0.1:1234/devstoreaccount1");
    assertThat(config.endpointFromConnectionString()).isTrue();
  }

  @Test
  void locationsWithoutContainerAreRejected() {
    assertThatThrownBy(
            () ->
                AzureConfig.from(
                    StorageLocation.of("abfs://acct.dfs.core.windows.net/x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("container@account");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Upper", "a", "a--b", "-ab", "ab-", "under_score"})
  void invalidContainerNamesAreRejected(String container) {
    assertThatThrownBy(
            () ->
                AzureConfig.from(
                    StorageLocation.of("abfs://" + container + "@acct.dfs.core.windows.net/x"),
                    Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid container name '" + container + "'");
  }

  @Test
  void otherSchemesAreRejected() {
    assertThatThrownBy(
            () ->
                AzureConfig.from(
                    StorageLocation.of("s3://data@acct.blob.core.windows.net/x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an Azure location");
  }

  @Test
  void atMostOneCredentialIsGiven() {
    assertThatThrownBy(
            () ->
                from(
                    Map.of(
                        AzureConfig.ACCOUNT_KEY.key(),
                        KEY,
                        AzureConfig.SAS_TOKEN.key(),
                        "sv=2020&sig=abc")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("azure.account-key")
        .hasMessageContaining("azure.sas-token");
  }

  @Test
  void secretsStayOutOfMessagesAndToString() {
    String badKey = "not base64 but secret!";
    assertThatThrownBy(() -> from(Map.of(AzureConfig.ACCOUNT_KEY.key(), badKey)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("azure.account-key")
        .hasMessageNotContaining("secret");
    String badSas = "sv=2020&secretvalue";
    assertThatThrownBy(() -> from(Map.of(AzureConfig.SAS_TOKEN.key(), badSas)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("azure.sas-token")
        .hasMessageNotContaining("secretvalue");

    AzureConfig withKey = from(Map.of(AzureConfig.ACCOUNT_KEY.key(), KEY));
    AzureConfig withSas = from(Map.of(AzureConfig.SAS_TOKEN.key(), "?sv=2020&sig=s3cr3t"));
    AzureConfig withConnectionString =
        from(
            Map.of(
                AzureConfig.CONNECTION_STRING.key(),
                "AccountName=acct;AccountKey=" + KEY + ";EndpointSuffix=core.windows.net"));

    assertThat(withKey.toString()).doesNotContain(KEY).contains("account_key");
    assertThat(withSas.credentials().secret()).isEqualTo("sv=2020&sig=s3cr3t");
    assertThat(withSas.toString()).doesNotContain("s3cr3t");
    assertThat(withConnectionString.toString()).doesNotContain(KEY);
  }

  @Test
  void numericSettingsAreBounded() {
    assertThat(from(Map.of()).deleteBatchSize()).isEqualTo(256);
    assertThat(from(Map.of(AzureConfig.DELETE_BATCH_SIZE.key(), "100")).deleteBatchSize())
        .isEqualTo(100);
    assertThatThrownBy(() -> from(Map.of(AzureConfig.DELETE_BATCH_SIZE.key(), "257")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("azure.delete-batch-size='257' must be from 1 to 256");
    assertThatThrownBy(() -> from(Map.of(AzureConfig.DELETE_PARALLELISM.key(), "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("azure.delete-parallelism='many' is not a whole number");
    assertThatThrownBy(() -> from(Map.of(AzureConfig.LIST_PAGE_SIZE.key(), "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("azure.list-page-size");
  }

  @Test
  void blankValuesAreRefusedRatherThanTakenForUnset() {
    for (Setting<?> setting : AzureConfig.SETTINGS) {
      assertThatThrownBy(() -> from(Map.of(setting.key(), "  ")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(setting.key() + " is blank");
    }
  }

  @Test
  void unknownAzureKeysAreRejectedAndOthersIgnored() {
    Map<String, String> config = new HashMap<>();
    config.put("s3.endpoint", "http://elsewhere");
    config.put("hoodie.keep.min.commits", "20");
    assertThat(from(config).account()).isEqualTo("acct");

    config.put("azure.acount-key", KEY);
    assertThatThrownBy(() -> from(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown setting azure.acount-key")
        .hasMessageContaining("azure.account-key")
        .hasMessageNotContaining(KEY);
  }

  private static AzureConfig from(Map<String, String> settings) {
    return AzureConfig.from(
        StorageLocation.of("abfss://data@acct.dfs.core.windows.net/t"), settings);
  }
}
