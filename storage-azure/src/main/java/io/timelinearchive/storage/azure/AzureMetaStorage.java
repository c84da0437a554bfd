package io.timelinearchive.storage.azure;

import static java.util.Objects.requireNonNull;

import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.HttpClientOptions;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.batch.BlobBatchClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.ConsistentReadControl;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlobInputStreamOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.SubFolders;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One container of an Azure storage account, through the Blob service (also for ADLS Gen2 accounts,
 * whose blob endpoint serves the same data): block blobs for instant files, append blobs for
 * archive logs.
 */
final class AzureMetaStorage implements MetaStorage, ServiceRequestCounting {
  /** The service's limit on the blocks of one append blob. */
  static final int MAX_APPEND_BLOCKS = 50_000;

  private final AzureConfig config;
  private final BlobContainerClient container;
  private final AzureBatchDelete deleter;
  private final ThreadPoolExecutor deleteExecutor;
  private final int appendBlockLimit;
  private final AzureRequestCounter requests = new AzureRequestCounter();

  /**
   * @param appendBlockLimit the most blocks an append blob may hold ({@link #MAX_APPEND_BLOCKS} but
   *     in tests)
   * @param extraPolicies added to every request's pipeline after the retry policy (tests inject
   *     faults with them)
   */
  AzureMetaStorage(
      AzureConfig config,
      RequestRetryOptions retryOptions,
      int appendBlockLimit,
      List<HttpPipelinePolicy> extraPolicies) {
    this.config = requireNonNull(config, "config is null");
    requireNonNull(retryOptions, "retryOptions is null");
    requireNonNull(extraPolicies, "extraPolicies is null");
    if (appendBlockLimit < 1 || appendBlockLimit > MAX_APPEND_BLOCKS) {
      throw new IllegalArgumentException("appendBlockLimit out of range: " + appendBlockLimit);
    }
    this.appendBlockLimit = appendBlockLimit;

    BlobServiceClientBuilder builder =
        new BlobServiceClientBuilder()
            .retryOptions(retryOptions)
            .clientOptions(
                new HttpClientOptions()
                    .setConnectTimeout(config.connectTimeout())
                    .setResponseTimeout(config.responseTimeout())
                    .setReadTimeout(config.responseTimeout()));
    AzureCredentials credentials = config.credentials();
    switch (credentials.kind()) {
      case CONNECTION_STRING -> builder.connectionString(credentials.secret());
      case ACCOUNT_KEY ->
          builder.credential(
              new StorageSharedKeyCredential(config.account(), credentials.secret()));
      case SAS_TOKEN -> builder.sasToken(credentials.secret());
      case DEFAULT_CHAIN -> builder.credential(new DefaultAzureCredentialBuilder().build());
    }
    if (!config.endpointFromConnectionString()) {
      builder.endpoint(config.endpoint());
    }
    builder.addPolicy(requests);
    extraPolicies.forEach(builder::addPolicy);
    this.container = builder.buildClient().getBlobContainerClient(config.container());

    this.deleteExecutor =
        new ThreadPoolExecutor(
            config.deleteParallelism(),
            config.deleteParallelism(),
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            DaemonThreads.factory("azure-delete-" + config.container()));
    deleteExecutor.allowCoreThreadTimeOut(true);
    this.deleter =
        new AzureBatchDelete(
            container,
            new BlobBatchClientBuilder(container).buildClient(),
            deleteExecutor,
            config.deleteBatchSize(),
            config.deleteParallelism(),
            config.account() + "/" + config.container());
  }

  @Override
  public Map<String, Long> serviceRequests() {
    return requests.snapshot();
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    check(folder);
    String prefix = SubFolders.keyPrefix(folder);
    return new AzureListing(folder, prefix, hierarchyPages(folder, prefix));
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    check(folder);
    return AzureFolderListing.list(folder, hierarchyPages(folder, SubFolders.keyPrefix(folder)));
  }

  /** A listing by hierarchy (delimiter {@code /}) of {@code prefix}, with metadata, paged. */
  private Iterator<PagedResponse<BlobItem>> hierarchyPages(StorageLocation folder, String prefix)
      throws IOException {
    ListBlobsOptions options =
        new ListBlobsOptions()
            .setPrefix(prefix)
            .setMaxResultsPerPage(config.listPageSize())
            .setDetails(new BlobListDetails().setRetrieveMetadata(true));
    try {
      return container.listBlobsByHierarchy("/", options, null).iterableByPage().iterator();
    } catch (RuntimeException e) {
      throw AzureErrors.toIoException("list", folder, e);
    }
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    BlobClient blob = blob(file);
    try {
      return blob.downloadContent().toBytes();
    } catch (RuntimeException e) {
      throw AzureErrors.toIoException("read", file, e);
    }
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    BlobClient blob = blob(file);
    try {
      // Archive logs only grow and instant files are written once, so reading up to the length
      // seen at open is consistent without pinning the ETag, which would make a reader fail
      // whenever an archiver appends meanwhile.
      return blob.openInputStream(
          new BlobInputStreamOptions().setConsistentReadControl(ConsistentReadControl.NONE));
    } catch (RuntimeException e) {
      throw AzureErrors.toIoException("open", file, e);
    }
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    AzureExclusiveCreate.create(blob(file).getBlockBlobClient(), file, content);
  }

  @Override
  public boolean supportsAppend() {
    return true;
  }

  /**
   * Opens an append blob, creating it if missing.
   *
   * @throws IOException if the blob cannot take more appends (see {@link AzureAppendableLog#open});
   *     the archiver then starts a new archive file
   */
  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    return Optional.of(
        AzureAppendableLog.open(file, blob(file).getAppendBlobClient(), appendBlockLimit));
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    Map<StorageLocation, String> blobs = new LinkedHashMap<>();
    for (StorageLocation file : files) {
      blobs.put(file, name(file));
    }
    if (!blobs.isEmpty()) {
      deleter.deleteAll(blobs);
    }
  }

  AzureBatchDelete.Mode deleteMode() {
    return deleter.mode();
  }

  @Override
  public void close() {
    deleteExecutor.shutdownNow();
  }

  @Override
  public String toString() {
    return "AzureMetaStorage[" + config.scheme() + "://" + config.authority() + "]";
  }

  private BlobClient blob(StorageLocation file) {
    return container.getBlobClient(name(file));
  }

  private String name(StorageLocation file) {
    String path = check(file);
    if (path.isEmpty()) {
      throw new IllegalArgumentException("not a file but the container root: " + file);
    }
    return path;
  }

  private String check(StorageLocation location) {
    requireNonNull(location, "location is null");
    if (!location.scheme().equals(config.scheme())
        || !location.authority().equals(config.authority())) {
      throw new IllegalArgumentException(
          "location "
              + location
              + " is outside this storage ("
              + config.scheme()
              + "://"
              + config.authority()
              + ")");
    }
    return location.path();
  }
}
