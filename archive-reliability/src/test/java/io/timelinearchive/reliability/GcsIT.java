package io.timelinearchive.reliability;

/** Crash trials and racing archivers on fake-gcs-server. */
class GcsIT extends AbstractStoreIT {
  @Override
  Store store() {
    return Store.gcs();
  }
}
