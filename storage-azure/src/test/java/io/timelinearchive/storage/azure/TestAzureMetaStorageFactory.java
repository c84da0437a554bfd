package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The factory as the archiver finds it: by scheme, through ServiceLoader. */
@ExtendWith(Azurite.Extension.class)
class TestAzureMetaStorageFactory {
  @ParameterizedTest
  @ValueSource(strings = {"abfs", "abfss", "wasb", "wasbs", "ABFSS"})
  void registeredForEveryAzureScheme(String scheme) {
    MetaStorageFactory factory =
        MetaStorages.factoryFor(scheme, TestAzureMetaStorageFactory.class.getClassLoader());

    assertThat(factory).isInstanceOf(AzureMetaStorageFactory.class);
  }

  @Test
  void declaresItsSettingsSoThatMisspeltKeysFail() {
    assertThat(MetaStorages.settingNamespaces(TestAzureMetaStorageFactory.class.getClassLoader()))
        .filteredOn(namespace -> namespace.prefix().equals("azure."))
        .singleElement()
        .satisfies(
            namespace -> {
              assertThat(namespace.kind()).isEqualTo(SettingNamespace.Kind.EXCLUSIVE);
              assertThat(namespace.settings()).isEqualTo(AzureConfig.SETTINGS);
            });
  }

  @Test
  void opensAWasbsLocationWithAnAccountKey() throws Exception {
    BlobContainerClient container = Azurite.get().newContainer();
    StorageLocation root =
        StorageLocation.of(
            "wasbs://"
                + container.getBlobContainerName()
                + "@"
                + Azurite.ACCOUNT
                + ".blob.core.windows.net/warehouse/t1");

    try (MetaStorage storage = MetaStorages.open(root, Azurite.get().config())) {
      StorageLocation file = root.resolve(".hoodie/20240101000000000.commit");
      storage.createExclusive(file, new byte[] {1, 2});

      assertThat(storage.read(file)).containsExactly(1, 2);
      assertThat(container.getBlobClient("warehouse/t1/.hoodie/20240101000000000.commit").exists())
          .isTrue();
    } finally {
      container.delete();
    }
  }

  @Test
  void opensWithAConnectionStringNamingTheEmulator() throws Exception {
    BlobContainerClient container = Azurite.get().newContainer();
    StorageLocation root =
        StorageLocation.of(
            "abfs://" + container.getBlobContainerName() + "@" + Azurite.ACCOUNT + "/t1");
    String connectionString =
        "DefaultEndpointsProtocol=http;AccountName="
            + Azurite.ACCOUNT
            + ";AccountKey="
            + Azurite.KEY
            + ";BlobEndpoint="
            + Azurite.get().endpoint()
            + ";";

    try (MetaStorage storage =
        MetaStorages.open(root, Map.of("azure.connection-string", connectionString))) {
      StorageLocation file = root.resolve("archived/.commits_.archive.1_1-0-1");
      try (AppendableLog log = storage.openLog(file).orElseThrow()) {
        log.append(new byte[] {7});
      }

      assertThat(storage.list(root.resolve("archived")).toList())
          .singleElement()
          .satisfies(entry -> assertThat(entry.length()).isEqualTo(1));
    } finally {
      container.delete();
    }
  }
}
