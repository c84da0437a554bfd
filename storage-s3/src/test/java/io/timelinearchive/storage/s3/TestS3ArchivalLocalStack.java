package io.timelinearchive.storage.s3;

import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/** End-to-end archival on LocalStack's S3; skipped where there is no Docker. */
@Testcontainers(disabledWithoutDocker = true)
class TestS3ArchivalLocalStack extends AbstractS3ArchivalTest {
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
