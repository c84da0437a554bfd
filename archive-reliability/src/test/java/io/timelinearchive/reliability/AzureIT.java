package io.timelinearchive.reliability;

import io.timelinearchive.storage.azure.Azurite;

/**
 * Crash trials and racing archivers on Azurite. Each crash trial asks for the server again, so that
 * a long run moves to a fresh one before the old one stalls (see {@link Azurite#get()}).
 */
class AzureIT extends AbstractStoreIT {
  @Override
  Store store() {
    return Store.azure();
  }

  @Override
  Store storeForTrial(int trial, Store current) {
    return Store.azure();
  }
}
