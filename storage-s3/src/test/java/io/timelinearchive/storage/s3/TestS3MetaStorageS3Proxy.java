package io.timelinearchive.storage.s3;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The storage contract against S3Proxy (in-process, in-memory store). Small list pages, delete
 * batches and multipart threshold make the paging, batching and multipart paths run at test sizes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestS3MetaStorageS3Proxy extends AbstractMetaStorageContractTest {
  static final Map<String, String> SMALL_PAGES =
      Map.of(
          S3Config.LIST_PAGE_SIZE.key(), "100",
          S3Config.DELETE_BATCH_SIZE.key(), "250",
          S3Config.MULTIPART_THRESHOLD.key(), "5MiB",
          S3Config.PART_SIZE.key(), "5MiB");

  private String bucket;
  private MetaStorage storage;

  protected S3Server server() {
    return S3ProxyServer.shared();
  }

  @BeforeAll
  void openStorage() throws IOException {
    bucket = server().newBucket();
    storage = server().open(bucket, SMALL_PAGES);
  }

  @AfterAll
  void closeStorage() throws IOException {
    if (storage != null) {
      storage.close();
    }
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return StorageLocation.of("s3://" + bucket + "/" + UUID.randomUUID());
  }

  @Override
  protected boolean hasAppend() {
    return false;
  }

  @Override
  protected int listingFileCount() {
    return 250; // three pages of 100
  }

  @Override
  protected int largeContentSize() {
    return 6 * MIB; // above the 5 MiB multipart threshold: two parts
  }

  @Test
  @Override
  public void testListSortsByUtf8ByteOrder() {
    // S3 lists in UTF-8 binary order
    // (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ListingKeysUsingAPIs.html); S3Proxy
    // 4.1.0's in-memory store sorts keys as Java strings (UTF-16 code units). No upstream issue
    // found; the same bug fixed in another emulator: https://github.com/floci-io/floci/pull/63
    assertKnownGap("S3Proxy lists in UTF-16 order, not UTF-8", super::testListSortsByUtf8ByteOrder);
  }
}
