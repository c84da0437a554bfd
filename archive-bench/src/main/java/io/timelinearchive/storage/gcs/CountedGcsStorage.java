package io.timelinearchive.storage.gcs;

import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * For the benchmark: a GCS storage on fake-gcs-server whose every request on the wire is recorded,
 * by going through the test {@link FaultProxy} (without faults) that storage-gcs's {@link
 * FakeGcsServer} puts in front of itself. Requests are counted by method and kind.
 */
public final class CountedGcsStorage extends ForwardingMetaStorage {
  private final FaultProxy proxy;

  private CountedGcsStorage(FaultProxy proxy, FakeGcsServer server, StorageLocation root)
      throws IOException {
    super(MetaStorages.open(root, server.config(proxy, Map.of())));
    this.proxy = proxy;
  }

  public static CountedGcsStorage open(FakeGcsServer server, StorageLocation root)
      throws IOException {
    FaultProxy proxy = server.proxy();
    try {
      return new CountedGcsStorage(proxy, server, root);
    } catch (IOException | RuntimeException e) {
      proxy.close();
      throw e;
    }
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
      super.close();
    } finally {
      proxy.close();
    }
  }
}
