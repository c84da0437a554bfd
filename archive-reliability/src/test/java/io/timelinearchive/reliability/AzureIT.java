package io.timelinearchive.reliability;

/** Crash trials and racing archivers on Azurite. */
class AzureIT extends AbstractStoreIT {
  @Override
  Store store() {
    return Store.azure();
  }
}
