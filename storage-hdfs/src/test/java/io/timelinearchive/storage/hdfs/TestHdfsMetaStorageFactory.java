package io.timelinearchive.storage.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  void schemesListedInTheConfigAreRoutedToHadoopThroughServiceLoader() {
    ClassLoader loader = getClass().getClassLoader();

    assertThatThrownBy(() -> MetaStorages.factoryFor("ofs", Map.of(), loader))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no storage for scheme 'ofs'");
    assertThat(MetaStorages.factoryFor("ofs", Map.of("hadoop.schemes", "ofs,jfs"), loader))
        .isInstanceOf(HdfsMetaStorageFactory.class);
  }
}
