package io.timelinearchive.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestS3MetaStorageFactory {
  private static final Map<String, String> OFFLINE =
      Map.of("s3.region", "us-west-2", "s3.access-key", "AKIAEXAMPLE", "s3.secret-key", "secret");

  @Test
  void servesS3AndS3aThroughServiceLoader() {
    ClassLoader loader = getClass().getClassLoader();
    assertThat(MetaStorages.factoryFor("s3", loader)).isInstanceOf(S3MetaStorageFactory.class);
    assertThat(MetaStorages.factoryFor("S3A", loader)).isInstanceOf(S3MetaStorageFactory.class);
    assertThat(new S3MetaStorageFactory().schemes()).containsExactlyInAnyOrder("s3", "s3a");
  }

  @Test
  void opensWithoutTalkingToS3() throws Exception {
    try (MetaStorage storage =
        MetaStorages.open(StorageLocation.of("s3a://bucket/tables/t1"), OFFLINE)) {
      assertThat(storage.toString()).isEqualTo("S3MetaStorage[s3a://bucket]");
      assertThat(S3MetaStorageFactory.requestCounts(storage)).contains(Map.of());
    }
  }

  @Test
  void rejectsLocationsItCannotServe() {
    S3MetaStorageFactory factory = new S3MetaStorageFactory();
    assertThatThrownBy(() -> factory.open(StorageLocation.of("s3:/no-bucket/path"), OFFLINE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no bucket in s3:///no-bucket/path");
    assertThatThrownBy(() -> factory.open(StorageLocation.of("gs://bucket/path"), OFFLINE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an s3 or s3a location");
  }

  @Test
  void declaresItsSettingsUnderS3() {
    assertThat(new S3MetaStorageFactory().settingNamespaces()).containsExactly(S3Config.NAMESPACE);
    assertThat(S3Config.NAMESPACE.kind()).isEqualTo(SettingNamespace.Kind.EXCLUSIVE);
  }

  @Test
  void invalidSettingFailsTheOpen() {
    assertThatThrownBy(
            () ->
                new S3MetaStorageFactory()
                    .open(
                        StorageLocation.of("s3://bucket"), Map.of("s3.delete-batch-size", "5000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3.delete-batch-size");
  }

  @Test
  void requestCountsOfAnotherStorageAreEmpty() throws Exception {
    try (MetaStorage memory = MetaStorages.open(StorageLocation.of("memory://v/t"), Map.of())) {
      assertThat(S3MetaStorageFactory.requestCounts(memory)).isEmpty();
    }
  }
}
