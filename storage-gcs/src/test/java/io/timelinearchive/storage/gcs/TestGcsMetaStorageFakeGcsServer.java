package io.timelinearchive.storage.gcs;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage contract on fake-gcs-server, creating files with single-request (multipart) uploads.
 * Listings page every 100 objects and deletes batch 100 at a time, so the paging and batching tests
 * cross several pages and batches with a few hundred files.
 */
class TestGcsMetaStorageFakeGcsServer extends AbstractMetaStorageContractTest {
  static final int LIST_PAGE_SIZE = 100;

  private static String bucket;
  private static MetaStorage storage;

  @BeforeAll
  static void openStorage() throws IOException {
    FakeGcsServer server = FakeGcsServer.shared();
    bucket = server.newBucket("contract");
    storage = open(server, bucket, Map.of());
  }

  @AfterAll
  static void closeStorage() throws IOException {
    storage.close();
  }

  /** Opens the bucket through the registry, as the archiver does. */
  static MetaStorage open(FakeGcsServer server, String bucket, Map<String, String> extra)
      throws IOException {
    Map<String, String> config = new HashMap<>(server.config());
    config.put(GcsConfig.LIST_PAGE_SIZE.key(), Integer.toString(LIST_PAGE_SIZE));
    config.putAll(extra);
    return MetaStorages.open(StorageLocation.of("gs://" + bucket), config);
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
    return 2 * LIST_PAGE_SIZE + 50;
  }

  @Override
  protected int deleteBatchFileCount() {
    // 257 files with the ones the test adds: three batches of at most 100
    return 250;
  }
}
