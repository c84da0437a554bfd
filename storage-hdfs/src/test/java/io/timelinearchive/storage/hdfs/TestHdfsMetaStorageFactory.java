package io.timelinearchive.storage.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestHdfsMetaStorageFactory {

  @Test
  void servesHdfsAndViewfsThroughServiceLoader() {
    ClassLoader loader = getClass().getClassLoader();

    assertThat(MetaStorages.factoryFor("hdfs", loader)).isInstanceOf(HdfsMetaStorageFactory.class);
    assertThat(MetaStorages.factoryFor("viewfs", loader))
        .isInstanceOf(HdfsMetaStorageFactory.class);
  }

  @Test
  void refusesSchemesNotListedInTheConfig() {
    assertThatThrownBy(
            () ->
                new HdfsMetaStorageFactory()
                    .open(StorageLocation.of("ofs://ozone1/vol/bucket/t"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ofs'")
        .hasMessageContaining("hadoop.schemes");
  }

  @Test
  void registersItsOwnKeysAmongTheHadoopKeysItPassesOn() {
    assertThat(new HdfsMetaStorageFactory().settingNamespaces())
        .singleElement()
        .satisfies(
            namespace -> {
              assertThat(namespace.prefix()).isEqualTo("hadoop.");
              assertThat(namespace.kind()).isEqualTo(SettingNamespace.Kind.PASSED_ON);
              assertThat(namespace.settings())
                  .extracting(Setting::key)
                  .containsExactly(
                      "hadoop.schemes",
                      "hadoop.lease-recovery-timeout",
                      "hadoop.connect-timeout",
                      "hadoop.request-timeout",
                      "hadoop.connect-retries");
            });
    // What the archiver checks before it opens a storage: Hadoop's keys pass, a misspelt one of
    // ours does not.
    assertThat(TimelineArchiver.checkKeys(Map.of("hadoop.fs.defaultFS", "hdfs://nn:8020")))
        .isEmpty();
    assertThatThrownBy(
            () -> TimelineArchiver.checkKeys(Map.of("hadoop.lease-recovery-timout", "10s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("did you mean hadoop.lease-recovery-timeout?");
  }

  @Test
  void schemesListedInTheConfigAreRoutedToHadoopThroughServiceLoader() {
    ClassLoader loader = getClass().getClassLoader();

    assertThatThrownBy(() -> MetaStorages.factoryFor("ofs", Map.of(), loader))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no storage for scheme 'ofs'");
    assertThat(MetaStorages.factoryFor("ofs", Map.of("hadoop.schemes", "ofs,jfs"), loader))
        .isInstanceOf(HdfsMetaStorageFactory.class);
  }
}
