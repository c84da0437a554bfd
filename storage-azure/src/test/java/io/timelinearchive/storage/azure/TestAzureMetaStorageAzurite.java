package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.common.policy.RequestRetryOptions;
import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** The storage contract on Azurite, through an abfs location and the account key. */
@ExtendWith(Azurite.Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestAzureMetaStorageAzurite extends AbstractMetaStorageContractTest {
  /** Small pages, so the paging test crosses many page boundaries. */
  private static final int LIST_PAGE_SIZE = 100;

  private String container;
  private AzureMetaStorage storage;

  @BeforeAll
  void openStorage() {
    container = Azurite.get().newContainer().getBlobContainerName();
    Map<String, String> config = new HashMap<>(Azurite.get().config());
    config.put(AzureConfig.LIST_PAGE_SIZE.key(), Integer.toString(LIST_PAGE_SIZE));
    storage =
        new AzureMetaStorage(
            AzureConfig.from(Azurite.rootOf(container), config),
            new RequestRetryOptions(),
            AzureMetaStorage.MAX_APPEND_BLOCKS,
            List.of());
  }

  @AfterAll
  void closeStorage() {
    storage.close();
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return Azurite.rootOf(container).resolve("t-" + UUID.randomUUID());
  }

  @Override
  protected boolean hasAppend() {
    return true;
  }

  /**
   * Not an emulator gap but how Azure works, on the service too: createExclusive writes a block
   * blob (the only atomic whole-content create), and a block blob cannot become an append blob.
   * openLog refuses it, and the archiver rolls over to a new archive file, as it does for archive
   * files Hudi wrote through ABFS (block blobs too).
   */
  @Test
  @Override
  public void testOpenLogOnCreatedFileAppendsAtTheEnd() throws Exception {
    assertKnownGap(
            "a block blob cannot be appended to", super::testOpenLogOnCreatedFileAppendsAtTheEnd)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("BlockBlob, not an append blob");

    assertThat(storage().read(root().resolve("log"))).hasSize(123);
  }
}
