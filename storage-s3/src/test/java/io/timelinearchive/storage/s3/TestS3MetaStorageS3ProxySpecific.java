package io.timelinearchive.storage.s3;

/** The S3-specific behaviour against S3Proxy, in-process on its in-memory store. */
class TestS3MetaStorageS3ProxySpecific extends AbstractS3MetaStorageTest {
  @Override
  protected S3Server server() {
    return S3ProxyServer.shared();
  }
}
