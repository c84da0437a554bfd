package io.timelinearchive.storage.s3;

/** End-to-end archival on S3Proxy. */
class TestS3ArchivalS3Proxy extends AbstractS3ArchivalTest {
  @Override
  protected S3Server server() {
    return S3ProxyServer.shared();
  }
}
