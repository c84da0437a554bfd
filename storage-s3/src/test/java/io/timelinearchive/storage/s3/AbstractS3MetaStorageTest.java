package io.timelinearchive.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * What the S3 backend adds to the storage contract, against one S3 API server: conditional creates
 * (single and multipart) under a race, DeleteObjects batching, delimiter listings with small pages
 * and odd keys, and the requests each operation costs (never a HeadObject).
 */
abstract class AbstractS3MetaStorageTest {
  private static final int MIB = 1 << 20;

  protected abstract S3Server server();

  private String bucket;
  private final List<MetaStorage> opened = new ArrayList<>();

  @BeforeEach
  void createBucket() {
    bucket = server().newBucket();
  }

  @AfterEach
  void closeStorages() throws IOException {
    for (MetaStorage storage : opened) {
      storage.close();
    }
  }

  private MetaStorage storage(Map<String, String> extra) throws IOException {
    MetaStorage storage = server().open(bucket, extra);
    opened.add(storage);
    return storage;
  }

  private MetaStorage storage() throws IOException {
    return storage(Map.of());
  }

  private StorageLocation at(String path) {
    return StorageLocation.of("s3://" + bucket + "/" + path);
  }

  private static Map<String, Long> counts(MetaStorage storage) {
    return S3MetaStorageFactory.requestCounts(storage).orElseThrow();
  }

  /** Puts objects behind the storage's back, in parallel. */
  private void putRaw(List<String> keys) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (String key : keys) {
        done.add(
            pool.submit(
                () ->
                    server()
                        .admin()
                        .putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(key))));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private List<String> rawKeys(String prefix) {
    return server()
        .admin()
        .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
        .contents()
        .stream()
        .map(o -> o.key())
        .toList();
  }

  @Test
  void racingCreatesHaveExactlyOneWinner() throws Exception {
    assertOneWinner(storage(), at("race/lock"), 8, 64);
  }

  @Test
  void racingMultipartCreatesHaveExactlyOneWinner() throws Exception {
    MetaStorage storage =
        storage(
            Map.of(S3Config.MULTIPART_THRESHOLD.key(), "5MiB", S3Config.PART_SIZE.key(), "5MiB"));
    assertOneWinner(storage, at("race/archive"), 3, 6 * MIB);
    // 3 starts, 6 parts, 3 completions, 2 aborts of the losers
    assertThat(counts(storage))
        .containsEntry("CreateMultipartUpload", 3L)
        .containsEntry("UploadPart", 6L)
        .containsEntry("AbortMultipartUpload", 2L)
        .doesNotContainKey("PutObject");
  }

  private static void assertOneWinner(
      MetaStorage storage, StorageLocation file, int writers, int size) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<byte[]>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        byte[] content = new byte[size];
        new Random(i).nextBytes(content);
        Callable<byte[]> write =
            () -> {
              start.await();
              try {
                storage.createExclusive(file, content);
                return content;
              } catch (FileAlreadyExistsException e) {
                return null;
              }
            };
        results.add(pool.submit(write));
      }
      start.countDown();
      List<byte[]> winners = new ArrayList<>();
      for (Future<byte[]> result : results) {
        byte[] won = result.get();
        if (won != null) {
          winners.add(won);
        }
      }
      assertThat(winners).hasSize(1);
      assertThat(storage.read(file)).isEqualTo(winners.get(0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void multipartCreateIsVisibleWholeAndExclusive() throws Exception {
    MetaStorage storage =
        storage(
            Map.of(S3Config.MULTIPART_THRESHOLD.key(), "5MiB", S3Config.PART_SIZE.key(), "5MiB"));
    byte[] content = new byte[11 * MIB + 3];
    new Random(42).nextBytes(content);
    StorageLocation file = at("archived/.commits_.archive.1_1-0-1");

    storage.createExclusive(file, content);

    assertThat(storage.read(file)).isEqualTo(content);
    assertThat(counts(storage))
        .containsEntry("CreateMultipartUpload", 1L)
        .containsEntry("UploadPart", 3L)
        .containsEntry("CompleteMultipartUpload", 1L);
    assertThatThrownBy(() -> storage.createExclusive(file, new byte[6 * MIB]))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(storage.read(file)).isEqualTo(content);
    assertThat(server().admin().listMultipartUploads(b -> b.bucket(bucket)).uploads())
        .as("the refused upload is aborted, not left behind")
        .isEmpty();
  }

  @Test
  void smallCreateIsOnePutAndNoHead() throws Exception {
    MetaStorage storage = storage();
    StorageLocation file = at("t/.hoodie/20240101000000000.commit");

    storage.createExclusive(file, "{}".getBytes(UTF_8));
    assertThatThrownBy(() -> storage.createExclusive(file, "{ }".getBytes(UTF_8)))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(file.toString());

    assertThat(storage.read(file)).isEqualTo("{}".getBytes(UTF_8));
    assertThat(counts(storage)).isEqualTo(Map.of("PutObject", 2L, "GetObject", 1L));
  }

  @Test
  void emptyFileCanBeCreatedAndRead() throws Exception {
    MetaStorage storage = storage();
    StorageLocation file = at("t/.hoodie/20240101000000000.commit.requested");
    storage.createExclusive(file, new byte[0]);
    assertThat(storage.read(file)).isEmpty();
    assertThat(storage.list(file.parent()).toList())
        .extracting(FileEntry::name, FileEntry::length)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(file.fileName(), 0L));
  }

  @Test
  void missingFileIsNoSuchFileWithoutHead() throws Exception {
    MetaStorage storage = storage();
    StorageLocation file = at("t/.hoodie/missing.commit");

    assertThatThrownBy(() -> storage.read(file))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(file.toString());
    assertThatThrownBy(() -> storage.open(file).close())
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(file.toString());

    assertThat(counts(storage)).isEqualTo(Map.of("GetObject", 2L));
  }

  @Test
  void openStreamsAndMayBeClosedEarly() throws Exception {
    MetaStorage storage = storage();
    byte[] content = new byte[3 * MIB];
    new Random(7).nextBytes(content);
    StorageLocation file = at("t/big");
    storage.createExclusive(file, content);

    try (InputStream in = storage.open(file)) {
      assertThat(in.readNBytes(10)).isEqualTo(Arrays.copyOf(content, 10));
    }
    try (InputStream in = storage.open(file)) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
    // the storage still works after an aborted stream
    assertThat(storage.read(file)).isEqualTo(content);
  }

  @Test
  void deleteSpanningBatchesUsesOneRequestPerBatch() throws Exception {
    List<String> keys =
        IntStream.range(0, 2_500)
            .mapToObj(i -> String.format("t/.hoodie/%017d.commit", i))
            .toList();
    putRaw(keys);
    putRaw(List.of("t/.hoodie/keep.commit"));
    MetaStorage storage = storage();

    List<StorageLocation> files = new ArrayList<>(keys.stream().map(this::at).toList());
    files.add(at("t/.hoodie/never-existed.commit"));
    files.add(files.get(0)); // a duplicate is deleted once
    storage.deleteAll(files);

    assertThat(rawKeys("t/")).containsExactly("t/.hoodie/keep.commit");
    assertThat(counts(storage)).isEqualTo(Map.of("DeleteObjects", 3L));
  }

  @Test
  void smallBatchesRunInParallel() throws Exception {
    List<String> keys = IntStream.range(0, 45).mapToObj(i -> "p/f" + i).toList();
    putRaw(keys);
    MetaStorage storage =
        storage(
            Map.of(S3Config.DELETE_BATCH_SIZE.key(), "4", S3Config.REQUEST_PARALLELISM.key(), "3"));

    storage.deleteAll(keys.stream().map(this::at).toList());

    assertThat(rawKeys("p/")).isEmpty();
    assertThat(counts(storage)).isEqualTo(Map.of("DeleteObjects", 12L));
  }

  @Test
  void deletingNothingOrMissingFilesSucceeds() throws Exception {
    MetaStorage storage = storage();
    storage.deleteAll(List.of());
    storage.deleteAll(List.of(at("nowhere/a"), at("nowhere/b")));
    assertThat(counts(storage)).isEqualTo(Map.of("DeleteObjects", 1L));
  }

  @Test
  void listPagesLazilyAndSkipsSubfolders() throws Exception {
    List<String> names = IntStream.range(0, 9).mapToObj(i -> "f" + i).toList();
    List<String> keys = new ArrayList<>(names.stream().map(n -> "t/.hoodie/" + n).toList());
    keys.add("t/.hoodie/"); // a folder marker some tools write
    keys.add("t/.hoodie/archived/.commits_.archive.1_1-0-1");
    keys.add("t/.hoodie/.aux/x");
    keys.add("t/.hoodie/metadata/.hoodie/y");
    keys.add("t/.hoodie0");
    putRaw(keys);
    MetaStorage storage = storage(Map.of(S3Config.LIST_PAGE_SIZE.key(), "2"));

    FileIterator listing = storage.list(at("t/.hoodie"));
    assertThat(counts(storage)).as("nothing fetched before the first hasNext").isEmpty();
    assertThat(listing.hasNext()).isTrue();
    long pagesForFirst = counts(storage).get("ListObjectsV2");
    List<FileEntry> entries = listing.toList();
    long pages = counts(storage).get("ListObjectsV2");
    assertThat(pagesForFirst).as("pages are fetched as needed").isLessThan(pages);

    assertThat(entries).extracting(FileEntry::name).containsExactlyElementsOf(names);
    assertThat(entries)
        .allSatisfy(e -> assertThat(e.length()).isEqualTo(e.location().path().length()));
    assertThat(entries.get(0).location()).isEqualTo(at("t/.hoodie/f0"));
    // 9 files, the marker and 3 sub-folders in pages of 2
    assertThat(pages).isBetween(6L, 8L);
  }

  @Test
  void listOfMissingFolderIsEmpty() throws Exception {
    MetaStorage storage = storage();
    assertThat(storage.list(at("no/such/folder")).toList()).isEmpty();
    assertThat(storage.list(StorageLocation.of("s3://" + bucket)).toList()).isEmpty();
  }

  @Test
  void keysAreKeptAsWritten() throws Exception {
    // A tab cannot travel in XML 1.0: the listing needs encoding-type=url.
    MetaStorage storage = storage();
    List<String> names = List.of("a b", "100%", "x+y", "q?a=1&b", "<tag>", "caf\u00e9", "tab\tx");
    for (String name : names) {
      storage.createExclusive(at("k/" + name), name.getBytes(UTF_8));
    }

    assertThat(rawKeys("k/"))
        .containsExactlyInAnyOrderElementsOf(names.stream().map(n -> "k/" + n).toList());
    List<FileEntry> listed = storage.list(at("k")).toList();
    assertThat(listed).extracting(FileEntry::name).containsExactlyInAnyOrderElementsOf(names);
    for (FileEntry entry : listed) {
      assertThat(storage.read(entry.location())).isEqualTo(entry.name().getBytes(UTF_8));
    }
    storage.deleteAll(listed.stream().map(FileEntry::location).toList());
    assertThat(rawKeys("k/")).isEmpty();
  }

  @Test
  void s3aSchemeNamesTheSameObjects() throws Exception {
    MetaStorage s3 = storage();
    MetaStorage s3a =
        new S3MetaStorageFactory()
            .open(StorageLocation.of("s3a://" + bucket + "/t"), server().config());
    opened.add(s3a);
    s3.createExclusive(at("t/x"), new byte[] {1});
    assertThat(s3a.read(StorageLocation.of("s3a://" + bucket + "/t/x"))).containsExactly(1);
    assertThatThrownBy(() -> s3a.read(at("t/x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not in this storage");
  }

  @Test
  void locationsOfOtherBucketsAreRejected() throws Exception {
    MetaStorage storage = storage();
    StorageLocation other = StorageLocation.of("s3://other-bucket/x");
    assertThatThrownBy(() -> storage.read(other)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> storage.deleteAll(List.of(at("a"), other)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> storage.list(StorageLocation.of("memory://v/x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(counts(storage)).isEmpty();
  }

  @Test
  void hasNoAppend() throws Exception {
    assertThat(storage().openLog(at("archived/.commits_.archive.1_1-0-1"))).isEmpty();
  }
}
