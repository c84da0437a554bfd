package io.timelinearchive.storage.azure;

import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorageFactory;
import io.timelinearchive.storage.StorageLocation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Azure Blob Storage for {@code abfs}, {@code abfss}, {@code wasb} and {@code wasbs} locations,
 * {@code scheme://container@account.dfs.core.windows.net/path} (or {@code .blob.}), with the {@code
 * azure.} settings of {@link AzureConfig#SETTINGS}.
 */
public final class AzureMetaStorageFactory implements MetaStorageFactory {
  @Override
  public Set<String> schemes() {
    return Set.of("abfs", "abfss", "wasb", "wasbs");
  }

  @Override
  public List<SettingNamespace> settingNamespaces() {
    return List.of(AzureConfig.NAMESPACE);
  }

  @Override
  public MetaStorage open(StorageLocation root, Map<String, String> config) {
    AzureConfig azure = AzureConfig.from(root, config);
    return new AzureMetaStorage(
        azure, retryOptions(azure), AzureMetaStorage.MAX_APPEND_BLOCKS, List.of());
  }

  private static RequestRetryOptions retryOptions(AzureConfig azure) {
    Duration maxDelay = Duration.ofMinutes(2);
    return new RequestRetryOptions(
        RetryPolicyType.EXPONENTIAL,
        azure.maxRetries() + 1,
        (Duration) null,
        azure.retryDelay(),
        azure.retryDelay().compareTo(maxDelay) > 0 ? azure.retryDelay() : maxDelay,
        null);
  }
}
