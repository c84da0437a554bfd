package io.timelinearchive.storage.azure;

import com.azure.storage.common.policy.RequestRetryOptions;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * For the benchmark: an Azure storage whose every attempt on the wire is recorded (with the
 * storage-azure tests' {@link RequestLog}, which is why this class lives in that package), counted
 * by method and {@code comp} operation.
 */
public final class CountedAzureStorage extends ForwardingMetaStorage {
  private final RequestLog log;

  private CountedAzureStorage(RequestLog log, StorageLocation root, Map<String, String> config) {
    super(
        new AzureMetaStorage(
            AzureConfig.from(root, config),
            new RequestRetryOptions(),
            AzureMetaStorage.MAX_APPEND_BLOCKS,
            List.of(log)));
    this.log = log;
  }

  public CountedAzureStorage(StorageLocation root, Map<String, String> config) {
    this(new RequestLog(), root, config);
  }

  /** Requests sent so far, by "METHOD comp" (e.g. "PUT appendblock", "GET"). */
  public Map<String, Long> requests() {
    Map<String, Long> counts = new TreeMap<>();
    for (RequestLog.Attempt a : log.attempts()) {
      String query = URI.create(a.url()).getRawQuery();
      String comp = "";
      if (query != null) {
        for (String part : query.split("&")) {
          if (part.startsWith("comp=")) {
            comp = " " + part.substring(5);
          } else if (part.startsWith("restype=") && comp.isEmpty()) {
            comp = " " + part.substring(8);
          }
        }
      }
      counts.merge(a.method() + comp, 1L, Long::sum);
    }
    return counts;
  }
}
