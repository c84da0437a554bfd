package io.timelinearchive.storage.s3;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/** The storage contract against LocalStack's S3; skipped where there is no Docker. */
@Testcontainers(disabledWithoutDocker = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestS3MetaStorageLocalStack extends AbstractMetaStorageContractTest {
  @Container static final LocalStackContainer LOCALSTACK = LocalStackServer.container();

  private String bucket;
  private MetaStorage storage;

  @BeforeAll
  void openStorage() throws IOException {
    LocalStackServer server = new LocalStackServer(LOCALSTACK);
    bucket = server.newBucket();
    storage = server.open(bucket, TestS3MetaStorageS3Proxy.SMALL_PAGES);
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
    return 250;
  }

  @Override
  protected int largeContentSize() {
    return 6 * MIB;
  }
}
