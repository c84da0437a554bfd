package io.timelinearchive.storage.s3;

import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/** The S3-specific behaviour against LocalStack; skipped where there is no Docker. */
@Testcontainers(disabledWithoutDocker = true)
class TestS3MetaStorageLocalStackSpecific extends AbstractS3MetaStorageTest {
  @Container static final LocalStackContainer LOCALSTACK = LocalStackServer.container();

  private static LocalStackServer server;

  @Override
  protected synchronized S3Server server() {
    if (server == null) {
      server = new LocalStackServer(LOCALSTACK);
    }
    return server;
  }
}
