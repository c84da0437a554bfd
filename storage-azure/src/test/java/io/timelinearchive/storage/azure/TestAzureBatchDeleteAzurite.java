package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.rest.Response;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.batch.BlobBatch;
import com.azure.storage.blob.batch.BlobBatchClient;
import com.azure.storage.blob.batch.BlobBatchClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.sas.BlobSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import com.azure.storage.common.policy.RequestRetryOptions;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.StorageLocation;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How deletes use blob batches, and how they do without them. */
@ExtendWith(Azurite.Extension.class)
class TestAzureBatchDeleteAzurite {
  private final RequestLog requests = new RequestLog();
  private BlobContainerClient container;
  private StorageLocation root;
  private final List<AzureMetaStorage> opened = new ArrayList<>();

  @BeforeEach
  void createContainer() {
    container = Azurite.get().newContainer();
    root = Azurite.rootOf(container.getBlobContainerName());
  }

  @AfterEach
  void cleanUp() {
    opened.forEach(AzureMetaStorage::close);
    container.delete();
  }

  private AzureMetaStorage open(Map<String, String> config) {
    AzureMetaStorage storage =
        new AzureMetaStorage(
            AzureConfig.from(root, config),
            new RequestRetryOptions(),
            AzureMetaStorage.MAX_APPEND_BLOCKS,
            List.of(requests));
    opened.add(storage);
    return storage;
  }

  @Test
  void deletesInBatchesOfAtMost256() throws Exception {
    AzureMetaStorage storage = open(Azurite.get().config());
    List<StorageLocation> files = upload("hoodie", 260);

    storage.deleteAll(files);

    assertThat(storage.deleteMode()).isEqualTo(AzureBatchDelete.Mode.BATCH);
    assertThat(requests.attempts(RequestLog.Attempt::isBatch))
        .extracting(RequestLog.Attempt::status)
        .containsExactly(202, 202);
    assertThat(remaining()).isEmpty();
  }

  @Test
  void serviceRequestsCountEachBatchOnceAndNotItsParts() throws Exception {
    AzureMetaStorage storage = open(Azurite.get().config());
    List<StorageLocation> files = upload("hoodie", 260);

    storage.list(root.resolve("hoodie")).toList();
    storage.read(files.get(0));
    storage.deleteAll(files);

    assertThat(storage.serviceRequests())
        .containsEntry("BlobBatch", 2L)
        .containsEntry("ListBlobs", 1L)
        .containsEntry("GetBlob", 1L)
        .doesNotContainKey("DeleteBlob");
    // The counter sees what went over the wire: the same attempts the request log saw.
    assertThat(storage.serviceRequests().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(requests.attempts(a -> true).size());
  }

  @Test
  void batchSizeSettingIsHonoured() throws Exception {
    Map<String, String> config = new HashMap<>(Azurite.get().config());
    config.put(AzureConfig.DELETE_BATCH_SIZE.key(), "10");
    AzureMetaStorage storage = open(config);
    List<StorageLocation> files = upload("hoodie", 25);

    storage.deleteAll(files);

    assertThat(requests.attempts(RequestLog.Attempt::isBatch)).hasSize(3);
    assertThat(remaining()).isEmpty();
  }

  @Test
  void refusedBatchFallsBackToSingleDeletesOnceForTheStorage() throws Exception {
    // A SAS for one blob cannot sign a batch, as a user-delegation SAS cannot on the service:
    // the batch is refused with 403 and the storage deletes one by one from then on.
    List<StorageLocation> files = upload("hoodie", 4);
    String sas =
        container
            .getBlobClient(files.get(0).path())
            .generateSas(
                new BlobServiceSasSignatureValues(
                    OffsetDateTime.now().plusHours(1),
                    new BlobSasPermission().setDeletePermission(true)));
    AzureMetaStorage storage =
        open(
            Map.of(
                AzureConfig.ENDPOINT.key(),
                Azurite.get().endpoint(),
                AzureConfig.SAS_TOKEN.key(),
                sas));

    assertThatThrownBy(() -> storage.deleteAll(files.subList(0, 2)))
        .isInstanceOfSatisfying(
            DeleteFailedException.class,
            e -> {
              // the token covers the first blob only: the second is reported, the first deleted
              assertThat(e.failures()).containsOnlyKeys(files.get(1));
              assertThat(e.failures().get(files.get(1))).startsWith("403");
            });
    assertThat(storage.deleteMode()).isEqualTo(AzureBatchDelete.Mode.SINGLES);
    assertThat(remaining()).containsExactly("hoodie/00001", "hoodie/00002", "hoodie/00003");

    assertThatThrownBy(() -> storage.deleteAll(files.subList(1, 4)))
        .isInstanceOfSatisfying(
            DeleteFailedException.class,
            e -> assertThat(e.failures()).containsOnlyKeys(files.subList(1, 4)));
    assertThat(requests.attempts(RequestLog.Attempt::isBatch))
        .as("batch requests over both calls")
        .extracting(RequestLog.Attempt::status)
        .containsExactly(403);
  }

  @Test
  void missingBlobsAreNotFailuresInBatches() throws Exception {
    AzureMetaStorage storage = open(Azurite.get().config());
    List<StorageLocation> files = new ArrayList<>(upload("hoodie", 3));
    files.add(root.resolve("hoodie/missing-1"));
    files.add(root.resolve("elsewhere/missing-2"));

    storage.deleteAll(files);

    assertThat(storage.deleteMode()).isEqualTo(AzureBatchDelete.Mode.BATCH);
    assertThat(remaining()).isEmpty();
  }

  @Test
  void folderMarkerBlobsAreNotListedAsFiles() throws Exception {
    // Accounts with a hierarchical namespace list each directory as an empty blob with this
    // metadata, next to its prefix; Hadoop's drivers write such markers on flat accounts too.
    AzureMetaStorage storage = open(Azurite.get().config());
    container.getBlobClient(".hoodie/archived").upload(BinaryData.fromBytes(new byte[0]));
    container.getBlobClient(".hoodie/archived").setMetadata(Map.of("hdi_isfolder", "true"));
    container.getBlobClient(".hoodie/20240101000000000.commit").upload(BinaryData.fromString("{}"));

    assertThat(storage.list(root.resolve(".hoodie")).toList())
        .extracting(e -> e.name())
        .containsExactly("20240101000000000.commit");
  }

  /**
   * Why the deleter uses the URL overload of {@link BlobBatch#deleteBlob}: Azurite (path-style)
   * refuses the (container, name) one, whose sub-request paths lack the account. If this starts to
   * pass, the gap has closed (nothing else to change).
   */
  @Test
  void azuriteRefusesTheContainerAndNameBatchOverload() throws Exception {
    upload("hoodie", 2);
    BlobBatchClient batchClient = new BlobBatchClientBuilder(container).buildClient();
    BlobBatch batch = batchClient.getBlobBatch();
    List<Response<Void>> responses = new ArrayList<>();
    for (String name : List.of("hoodie/00000", "hoodie/00001")) {
      responses.add(batch.deleteBlob(container.getBlobContainerName(), name));
    }

    // Azurite gap: https://github.com/Azure/Azurite/issues/1809 (also #2309, #2509)
    assertThatThrownBy(() -> batchClient.submitBatchWithResponse(batch, false, null, null))
        .isInstanceOfSatisfying(
            BlobStorageException.class,
            e -> assertThat(AzureErrors.reason(e)).isEqualTo("400 InvalidInput"));
    assertThat(remaining()).containsExactly("hoodie/00000", "hoodie/00001");
  }

  private List<StorageLocation> upload(String folder, int count) throws Exception {
    List<String> names =
        IntStream.range(0, count).mapToObj(i -> String.format("%s/%05d", folder, i)).toList();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> uploads = new ArrayList<>();
      for (String name : names) {
        uploads.add(
            pool.submit(() -> container.getBlobClient(name).upload(BinaryData.fromString(name))));
      }
      for (Future<?> upload : uploads) {
        upload.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return names.stream().map(root::resolve).toList();
  }

  private List<String> remaining() {
    return container.listBlobs().stream().map(BlobItem::getName).toList();
  }
}
