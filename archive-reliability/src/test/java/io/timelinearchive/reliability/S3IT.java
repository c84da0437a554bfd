package io.timelinearchive.reliability;

/** Crash trials and racing archivers on S3Proxy. */
class S3IT extends AbstractStoreIT {
  @Override
  Store store() {
    return Store.s3();
  }
}
