package io.timelinearchive.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestInMemoryMetaStorage extends AbstractMetaStorageContractTest {
  private String volume;
  private MetaStorage storage;

  @BeforeEach
  void openVolume() throws IOException {
    volume = "contract-" + UUID.randomUUID();
    storage =
        new InMemoryMetaStorageFactory().open(StorageLocation.of("memory://" + volume), Map.of());
  }

  @AfterEach
  void dropVolume() throws IOException {
    storage.close();
    InMemoryMetaStorageFactory.dropVolume(volume);
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return StorageLocation.of("memory://" + volume + "/tests/" + UUID.randomUUID());
  }

  @Override
  protected boolean hasAppend() {
    return true;
  }

  @Test
  void testListRootOfVolume() throws Exception {
    StorageLocation volumeRoot = StorageLocation.of("memory://" + volume);
    storage.createExclusive(volumeRoot.resolve("b"), new byte[] {1});
    storage.createExclusive(volumeRoot.resolve("a"), new byte[] {1});
    storage.createExclusive(volumeRoot.resolve("sub/c"), new byte[] {1});

    assertThat(listNames(volumeRoot)).containsExactly("a", "b");
  }

  @Test
  void testStorageOpenedOnOneVolumeSeesAnotherStoragesFiles() throws Exception {
    StorageLocation file = newRootFolder().resolve("shared");
    storage.createExclusive(file, new byte[] {7});

    try (MetaStorage second = new InMemoryMetaStorageFactory().open(file, Map.of())) {
      assertThat(second.read(file)).containsExactly(7);
      second.deleteAll(List.of(file));
    }
    assertThat(storage.list(file.parent()).hasNext()).isFalse();
  }
}
