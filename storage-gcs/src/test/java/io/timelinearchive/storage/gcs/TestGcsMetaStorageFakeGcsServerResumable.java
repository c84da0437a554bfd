package io.timelinearchive.storage.gcs;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage contract on fake-gcs-server with every non-empty file created by a resumable upload:
 * the path where emulators have dropped the {@code ifGenerationMatch=0} precondition
 * (fsouza/fake-gcs-server#1967, fixed in v1.56 by #2260).
 */
class TestGcsMetaStorageFakeGcsServerResumable extends AbstractMetaStorageContractTest {
  private static String bucket;
  private static MetaStorage storage;

  @BeforeAll
  static void openStorage() throws IOException {
    FakeGcsServer server = FakeGcsServer.shared();
    bucket = server.newBucket("contract-resumable");
    storage =
        TestGcsMetaStorageFakeGcsServer.open(
            server, bucket, Map.of(GcsConfig.SINGLE_REQUEST_UPLOAD_MAX_BYTES.key(), "0"));
  }

  @AfterAll
  static void closeStorage() throws IOException {
    storage.close();
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return StorageLocation.of("gs://" + bucket + "/" + UUID.randomUUID());
  }

  @Override
  protected boolean hasAppend() {
    return false;
  }

  @Override
  protected int listingFileCount() {
    return 2 * TestGcsMetaStorageFakeGcsServer.LIST_PAGE_SIZE + 50;
  }

  @Override
  protected int deleteBatchFileCount() {
    return 250;
  }
}
