package io.timelinearchive.storage.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listings, reads and streams on fake-gcs-server. */
class TestGcsListingAndReads {
  private static final FakeGcsServer SERVER = FakeGcsServer.shared();

  private String bucket;
  private FaultProxy proxy;
  private MetaStorage storage;
  private final List<MetaStorage> storages = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    bucket = SERVER.newBucket("list");
    proxy = SERVER.proxy();
    storage = open(Map.of());
  }

  @AfterEach
  void tearDown() throws IOException {
    for (MetaStorage s : storages) {
      s.close();
    }
    proxy.close();
  }

  @Test
  void listsTheDirectFilesOfAFolderByName() throws IOException {
    Instant before = Instant.now().minus(Duration.ofMinutes(5));
    write("t/.hoodie/20240102.commit", "bb");
    write("t/.hoodie/20240101.commit", "a");
    write("t/.hoodie/hoodie.properties", "ccc");
    write("t/.hoodie/.aux/20240101.compaction.requested", "nested");
    write("t/.hoodie/archived/.commits_.archive.1_1-0-1", "nested");
    write("t/.hoodie.sibling", "not in the folder");
    write("t/.hoodie-x/file", "not in the folder");

    List<FileEntry> entries = storage.list(location("t/.hoodie")).toList();

    assertThat(entries)
        .extracting(FileEntry::name)
        .containsExactly("20240101.commit", "20240102.commit", "hoodie.properties");
    assertThat(entries).extracting(FileEntry::length).containsExactly(1L, 2L, 3L);
    assertThat(entries.get(0).location()).isEqualTo(location("t/.hoodie/20240101.commit"));
    assertThat(entries)
        .allSatisfy(e -> assertThat(e.lastModified()).isAfter(before).isBefore(Instant.now()));
  }

  @Test
  void ordersNamesByTheirUtf8Bytes() throws IOException {
    // UTF-16 order would put U+FF5E before U+1F600 (a surrogate pair); UTF-8 order does not.
    List<String> names = List.of("a b", "a%20b", "z", "\u00e9", "\uff5e", "\ud83d\ude00");
    for (String name : names) {
      write("u/" + name, name);
    }

    assertThat(storage.list(location("u")).toList())
        .extracting(FileEntry::name)
        .containsExactly("a b", "a%20b", "z", "\u00e9", "\uff5e", "\ud83d\ude00");
  }

  @Test
  void skipsAFolderPlaceholderObject() throws IOException {
    // As the Cloud Console makes them; no location can name it.
    SERVER.upload(bucket, "p/", new byte[0]);
    write("p/file", "x");

    assertThat(storage.list(location("p")).toList())
        .extracting(FileEntry::name)
        .containsExactly("file");
  }

  @Test
  void listsTheBucketRoot() throws IOException {
    write("top", "x");
    write("folder/below", "x");

    assertThat(storage.list(StorageLocation.of("gs://" + bucket)).toList())
        .extracting(FileEntry::name)
        .containsExactly("top");
  }

  @Test
  void pagesLazily() throws IOException {
    MetaStorage paged = open(Map.of(GcsConfig.LIST_PAGE_SIZE.key(), "7"));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      String name = String.format("%014d.deltacommit", 20240101000000L + i);
      write("t/.hoodie/" + name, "x");
      expected.add(name);
    }
    long before = proxy.count(FaultProxy.Request::isList);

    FileIterator iterator = paged.list(location("t/.hoodie"));
    List<String> firstPage = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      firstPage.add(iterator.next().name());
    }
    assertThat(proxy.count(FaultProxy.Request::isList) - before).isEqualTo(1);
    List<String> all = new ArrayList<>(firstPage);
    while (iterator.hasNext()) {
      all.add(iterator.next().name());
    }

    assertThat(all).isEqualTo(expected);
    assertThat(proxy.count(FaultProxy.Request::isList) - before).isEqualTo(8);
  }

  @Test
  void aMissingFolderListsAsEmpty() throws IOException {
    assertThat(storage.list(location("nothing/here")).toList()).isEmpty();
  }

  @Test
  void aMissingBucketIsNoSuchFile() throws IOException {
    MetaStorage missing =
        MetaStorages.open(StorageLocation.of("gs://no-such-bucket-" + bucket), SERVER.config());
    storages.add(missing);

    assertThatThrownBy(
            () -> missing.list(StorageLocation.of("gs://no-such-bucket-" + bucket + "/t")))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("bucket does not exist");
  }

  @Test
  void readsAndStreamsFiles() throws IOException {
    byte[] large = new byte[5 << 20];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) (i * 31 + (i >>> 11));
    }
    storage.createExclusive(location("large"), large);
    write("small", "small");

    assertThat(storage.read(location("large"))).isEqualTo(large);
    try (InputStream in = storage.open(location("large"))) {
      assertThat(in.readAllBytes()).isEqualTo(large);
    }
    try (InputStream in = storage.open(location("small"))) {
      assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("small");
    }
  }

  @Test
  void readingAMissingFileIsNoSuchFile() {
    assertThatThrownBy(() -> storage.read(location("missing")))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("gs://" + bucket + "/missing");
    assertThatThrownBy(
            () -> {
              try (InputStream in = storage.open(location("missing"))) {
                in.read();
              }
            })
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("gs://" + bucket + "/missing");
  }

  @Test
  void readsAreRetried() throws IOException {
    write("flaky", "content");
    proxy.inject(r -> r.target().contains("/o/flaky"), FaultProxy.Fault.respondJson(503), 1);
    proxy.inject(r -> r.target().contains("/o/flaky"), FaultProxy.Fault.DROP_BEFORE, 1);

    assertThat(new String(storage.read(location("flaky")), UTF_8)).isEqualTo("content");
  }

  @Test
  void hasNoAppend() throws IOException {
    assertThat(storage.openLog(location("t/.hoodie/archived/.commits_.archive.1_1-0-1"))).isEmpty();
  }

  @Test
  void rejectsLocationsOfOtherStores() {
    assertThatThrownBy(() -> storage.read(StorageLocation.of("gs://other-bucket/file")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gs://other-bucket/file");
    assertThatThrownBy(() -> storage.read(StorageLocation.of("s3://" + bucket + "/file")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> storage.list(StorageLocation.of("gs://other-bucket")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gs://other-bucket/");
    assertThatThrownBy(() -> storage.read(StorageLocation.of("gs://" + bucket)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a file");
  }

  private void write(String path, String content) throws IOException {
    storage.createExclusive(location(path), content.getBytes(UTF_8));
  }

  private MetaStorage open(Map<String, String> overrides) throws IOException {
    MetaStorage s =
        MetaStorages.open(StorageLocation.of("gs://" + bucket), SERVER.config(proxy, overrides));
    storages.add(s);
    return s;
  }

  private StorageLocation location(String path) {
    return StorageLocation.of("gs://" + bucket + "/" + path);
  }
}
