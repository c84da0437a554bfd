package io.timelinearchive.storage.gcs;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * For the benchmark: a GCS storage on fake-gcs-server whose every request on the wire is recorded,
 * by going through the storage-gcs tests' {@link FaultProxy} (without faults), which is why this
 * class lives in that package. Requests are counted by method and kind.
 */
public final class CountedGcsStorage implements Closeable {
  private final FaultProxy proxy;
  private final MetaStorage storage;

  public CountedGcsStorage(FakeGcsServer server, StorageLocation root) throws IOException {
    this.proxy = FaultProxy.in(server);
    this.storage = MetaStorages.open(root, proxy.config(server, Map.of()));
  }

  public MetaStorage storage() {
    return storage;
  }

  /** Requests sent so far, by "METHOD kind" (kind: batch, upload, list, object). */
  public Map<String, Long> requests() {
    Map<String, Long> counts = new TreeMap<>();
    for (FaultProxy.Request r : proxy.requests()) {
      String kind =
          r.isBatch() ? "batch" : r.isUpload() ? "upload" : r.isList() ? "list" : "object";
      counts.merge(r.method() + " " + kind, 1L, Long::sum);
    }
    return counts;
  }

  @Override
  public void close() throws IOException {
    try {
      storage.close();
    } finally {
      proxy.close();
    }
  }
}
