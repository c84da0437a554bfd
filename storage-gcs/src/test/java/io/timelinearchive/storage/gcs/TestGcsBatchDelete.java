package io.timelinearchive.storage.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import io.timelinearchive.testing.FaultProxy.Fault;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Batched deletes on fake-gcs-server, counted and disturbed through a {@link FaultProxy}. */
class TestGcsBatchDelete {
  private static final FakeGcsServer SERVER = FakeGcsServer.shared();

  private String bucket;
  private FaultProxy proxy;
  private MetaStorage direct;
  private final List<MetaStorage> storages = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    bucket = SERVER.newBucket("delete");
    proxy = SERVER.proxy();
    direct = MetaStorages.open(StorageLocation.of("gs://" + bucket), SERVER.config());
    storages.add(direct);
  }

  @AfterEach
  void tearDown() throws IOException {
    for (MetaStorage storage : storages) {
      storage.close();
    }
    proxy.close();
  }

  @Test
  void deletes250FilesInThreeBatchesIgnoringMissingOnes() throws IOException {
    MetaStorage storage = open(Map.of());
    List<StorageLocation> files = createFiles("t/.hoodie", 240);
    List<StorageLocation> toDelete = new ArrayList<>(files);
    for (int i = 0; i < 10; i++) {
      toDelete.add(file("t/.hoodie/missing-" + i));
    }

    storage.deleteAll(toDelete);

    assertThat(storage.list(folder("t/.hoodie")).toList()).isEmpty();
    assertThat(proxy.count(FaultProxy.Request::isBatch)).isEqualTo(3);
    // The storage's own count agrees with what went through the proxy: a batch is one request.
    assertThat(ServiceRequestCounting.countsOf(storage))
        .containsEntry("batch", 3L)
        .containsEntry("objects.list", 1L)
        .doesNotContainKey("objects.delete");
    assertThat(
            ServiceRequestCounting.countsOf(storage).values().stream()
                .mapToLong(Long::longValue)
                .sum())
        .isEqualTo(proxy.requests().size());
  }

  @Test
  void smallBatchesRunInParallel() throws IOException {
    MetaStorage storage =
        open(Map.of(GcsConfig.BATCH_SIZE.key(), "7", GcsConfig.PARALLELISM.key(), "3"));
    List<StorageLocation> files = createFiles("p", 50);

    storage.deleteAll(files);

    assertThat(storage.list(folder("p")).toList()).isEmpty();
    assertThat(proxy.count(FaultProxy.Request::isBatch)).isEqualTo(8);
  }

  @Test
  void oneFileIsDeletedWithOnePlainRequest() throws IOException {
    MetaStorage storage = open(Map.of());
    List<StorageLocation> files = createFiles("one", 2);

    storage.deleteAll(List.of(files.get(0)));
    storage.deleteAll(List.of(file("one/missing")));

    assertThat(direct.list(folder("one")).toList())
        .extracting(FileEntry::location)
        .containsExactly(files.get(1));
    assertThat(proxy.requests())
        .extracting(FaultProxy.Request::method)
        .containsExactly("DELETE", "DELETE");
  }

  @Test
  void oneFileThatCannotBeDeletedIsNamed() throws IOException {
    MetaStorage storage = open(Map.of(GcsConfig.RETRIES.key(), "1"));
    List<StorageLocation> files = createFiles("stuck", 1);
    proxy.inject(r -> r.method().equals("DELETE"), Fault.respondJson(503), 2);

    assertThatThrownBy(() -> storage.deleteAll(files))
        .isInstanceOfSatisfying(
            DeleteFailedException.class,
            e -> {
              assertThat(e.failures()).containsOnlyKeys(files);
              assertThat(e.failures().values()).allSatisfy(m -> assertThat(m).startsWith("503"));
            });
    assertThat(direct.list(folder("stuck")).toList()).hasSize(1);
  }

  @Test
  void deletingNothingSendsNothing() throws IOException {
    MetaStorage storage = open(Map.of());

    storage.deleteAll(List.of());

    assertThat(proxy.requests()).isEmpty();
  }

  @Test
  void theFilesTheServerRefusesAreNamedAndTheRestAreDeleted() throws IOException {
    MetaStorage storage = open(Map.of(GcsConfig.RETRIES.key(), "1"));
    List<StorageLocation> files = createFiles("f", 150);
    Set<StorageLocation> refused = Set.of(files.get(3), files.get(120), files.get(149));
    // The server answers 400 for these entries of the batch (a malformed generation).
    Set<String> refusedNames =
        refused.stream().map(StorageLocation::path).collect(Collectors.toSet());
    proxy.rewriteBodies(FaultProxy.Request::isBatch, body -> refuseDeletesOf(body, refusedNames));

    assertThatThrownBy(() -> storage.deleteAll(files))
        .isInstanceOfSatisfying(
            DeleteFailedException.class,
            e -> {
              assertThat(e.failures()).containsOnlyKeys(refused);
              assertThat(e.failures().values()).allSatisfy(m -> assertThat(m).startsWith("400"));
              assertThat(e.getMessage()).contains("failed to delete 3 file(s)");
            });
    assertThat(storage.list(folder("f")).toList())
        .extracting(FileEntry::location)
        .containsExactlyInAnyOrderElementsOf(refused);
    // Refused with 400, not retried.
    assertThat(proxy.count(FaultProxy.Request::isBatch)).isEqualTo(2);
  }

  @Test
  void aFailedBatchRequestIsRetried() throws IOException {
    MetaStorage storage = open(Map.of(GcsConfig.RETRIES.key(), "2"));
    List<StorageLocation> files = createFiles("r", 30);
    proxy.inject(FaultProxy.Request::isBatch, Fault.respondJson(503), 1);
    proxy.inject(FaultProxy.Request::isBatch, Fault.DROP_BEFORE, 1);

    storage.deleteAll(files);

    assertThat(storage.list(folder("r")).toList()).isEmpty();
    assertThat(proxy.count(FaultProxy.Request::isBatch)).isEqualTo(3);
  }

  @Test
  void aBatchThatKeepsFailingNamesEveryFile() throws IOException {
    MetaStorage storage = open(Map.of(GcsConfig.RETRIES.key(), "1"));
    List<StorageLocation> files = createFiles("u", 5);
    proxy.inject(FaultProxy.Request::isBatch, Fault.respondJson(503), 2);

    assertThatThrownBy(() -> storage.deleteAll(files))
        .isInstanceOfSatisfying(
            DeleteFailedException.class, e -> assertThat(e.failures()).containsOnlyKeys(files));
    assertThat(storage.list(folder("u")).toList()).hasSize(5);
  }

  @Test
  void aLocationOfAnotherBucketIsRejectedBeforeAnyDelete() throws IOException {
    MetaStorage storage = open(Map.of());
    List<StorageLocation> files = createFiles("x", 2);
    List<StorageLocation> mixed = new ArrayList<>(files);
    mixed.add(StorageLocation.of("gs://another-bucket/x/0"));

    assertThatThrownBy(() -> storage.deleteAll(mixed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gs://another-bucket/x/0");
    assertThat(storage.list(folder("x")).toList()).hasSize(2);
  }

  /** Makes the server refuse the batched deletes of the given object names. */
  static String refuseDeletesOf(String body, Set<String> names) {
    Pattern deleteLine =
        Pattern.compile("(?m)^DELETE (\\S+/o/)([^?\\s]+)(\\??)(\\S*)( HTTP/1\\.1)$");
    Matcher m = deleteLine.matcher(body);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = java.net.URLDecoder.decode(m.group(2), UTF_8);
      String replacement =
          names.contains(name)
              ? "DELETE "
                  + m.group(1)
                  + m.group(2)
                  + "?generation=not-a-number"
                  + (m.group(4).isEmpty() ? "" : "&" + m.group(4))
                  + m.group(5)
              : m.group();
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Creates files directly on the server, so that the proxy counts only what the test does. */
  private List<StorageLocation> createFiles(String folder, int count) throws IOException {
    List<StorageLocation> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StorageLocation file = file(folder + "/" + String.format("%05d.commit", i));
      direct.createExclusive(file, ("instant " + i).getBytes(UTF_8));
      files.add(file);
    }
    assertThat(direct.list(folder(folder)).toList()).hasSize(count);
    return files;
  }

  private MetaStorage open(Map<String, String> overrides) throws IOException {
    Map<String, String> config = new HashMap<>(SERVER.config(proxy, overrides));
    MetaStorage storage = MetaStorages.open(StorageLocation.of("gs://" + bucket), config);
    storages.add(storage);
    return storage;
  }

  private StorageLocation file(String path) {
    return StorageLocation.of("gs://" + bucket + "/" + path);
  }

  private StorageLocation folder(String path) {
    return file(path);
  }
}
