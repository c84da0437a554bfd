package io.timelinearchive.storage.azure;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.StorageLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Azure Blob Storage for {@code abfs}, {@code abfss}, {@code wasb} and {@code wasbs} locations,
 * {@code scheme://container@account.dfs.core.windows.net/path} (or {@code .blob.}). Settings:
 *
 * <ul>
 *   <li>{@code azure.endpoint}: the blob endpoint to use instead of the account's public one, for
 *       an emulator ({@code http://127.0.0.1:10000/devstoreaccount1}) or a private endpoint
 *   <li>{@code azure.connection-string}, {@code azure.account-key} or {@code azure.sas-token}: at
 *       most one; without any, the default Azure credential chain (environment, workload or managed
 *       identity, Azure CLI, ...)
 *   <li>{@code azure.delete-batch-size} (1–256, default 256), {@code azure.delete-parallelism}
 *       (single deletes in flight where batches are refused, 1–64, default 8), {@code
 *       azure.list-page-size} (1–5000, default 5000)
 * </ul>
 */
public final class AzureMetaStorageFactory implements MetaStorageFactory {
  @Override
  public Set<String> schemes() {
    return Set.of("abfs", "abfss", "wasb", "wasbs");
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) {
    return new AzureMetaStorage(
        AzureConfig.from(root, config),
        new com.azure.storage.common.policy.RequestRetryOptions(),
        AzureMetaStorage.MAX_APPEND_BLOCKS,
        List.of());
  }
}
