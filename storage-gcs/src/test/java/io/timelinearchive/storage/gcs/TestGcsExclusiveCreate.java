package io.timelinearchive.storage.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import io.timelinearchive.testing.FaultProxy.Fault;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exclusive creates on fake-gcs-server, by both upload paths: one multipart request, and a
 * resumable session (forced with a tiny single-request limit). The emulator enforces {@code
 * ifGenerationMatch=0} on both since v1.56 (resumable before that: fsouza/fake-gcs-server#1967,
 * fixed by #2260), so every precondition test here passes rather than expects a failure.
 */
class TestGcsExclusiveCreate {
  private static final FakeGcsServer SERVER = FakeGcsServer.shared();

  enum Path {
    SINGLE_REQUEST(Map.of()),
    RESUMABLE(Map.of(GcsConfig.SINGLE_REQUEST_UPLOAD_MAX_BYTES.key(), "16"));

    final Map<String, String> config;

    Path(Map<String, String> config) {
      this.config = config;
    }
  }

  private String bucket;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeEach
  void createBucket() {
    bucket = SERVER.newBucket("create");
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void createsOnceThenRefuses(Path path) throws IOException {
    FaultProxy proxy = proxy();
    MetaStorage storage = open(path, SERVER.config(proxy, Map.of()));
    StorageLocation file = file("archive/.commits_.archive.1_1-0-1");
    byte[] first = content("first", 64);

    storage.createExclusive(file, first);
    List<FaultProxy.Request> uploads = proxy.requests();
    if (path == Path.SINGLE_REQUEST) {
      assertThat(uploads).singleElement().satisfies(r -> assertUpload(r, "multipart"));
    } else {
      assertThat(uploads).hasSize(2);
      assertUpload(uploads.get(0), "resumable");
      assertThat(uploads.get(1).method()).isEqualTo("PUT");
    }

    assertThatThrownBy(() -> storage.createExclusive(file, content("second", 64)))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(file.toString());
    assertThat(storage.read(file)).isEqualTo(first);
  }

  @Test
  void aResumableUploadChecksThePreconditionWhenItFinishes() throws Exception {
    FaultProxy proxy = proxy();
    MetaStorage storage = open(Path.RESUMABLE, SERVER.config(proxy, Map.of()));
    MetaStorage other = open(Path.SINGLE_REQUEST, SERVER.config());
    StorageLocation file = file("raced");
    // Another writer creates the file after this upload's session started and before it ends.
    proxy.beforeForwarding(
        r -> r.isUpload() && r.method().equals("PUT"),
        () -> other.createExclusive(file, content("theirs", 100)));

    assertThatThrownBy(() -> storage.createExclusive(file, content("mine", 100)))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(storage.read(file)).isEqualTo(content("theirs", 100));
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void createsEmptyAndLargeFiles(Path path) throws IOException {
    MetaStorage storage = open(path, SERVER.config());
    byte[] large = content("large", 3 << 20);

    storage.createExclusive(file("empty"), new byte[0]);
    storage.createExclusive(file("large"), large);

    assertThat(storage.read(file("empty"))).isEmpty();
    assertThat(storage.read(file("large"))).isEqualTo(large);
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void eightRacingWritersHaveOneWinner(Path path) throws Exception {
    MetaStorage storage = open(path, SERVER.config());
    StorageLocation file = file("lock");
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        byte[] mine = content("writer-" + i, 1024);
        Callable<Boolean> write =
            () -> {
              start.await();
              try {
                storage.createExclusive(file, mine);
                return true;
              } catch (FileAlreadyExistsException e) {
                return false;
              }
            };
        results.add(pool.submit(write));
      }
      start.countDown();
      int winner = -1;
      for (int i = 0; i < writers; i++) {
        if (results.get(i).get()) {
          assertThat(winner).as("a second writer won: %s and %s", winner, i).isEqualTo(-1);
          winner = i;
        }
      }
      assertThat(winner).as("no writer won").isNotEqualTo(-1);
      assertThat(storage.read(file)).isEqualTo(content("writer-" + winner, 1024));
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void aLostAnswerThenA412IsAnUnknownOutcome(Path path) throws Exception {
    FaultProxy proxy = proxy();
    // The server creates the file, the answer is lost, the retry is refused with 412: the 412
    // is this call's own doing, or another writer's in between; nothing here can tell.
    proxy.inject(lastUploadRequest(path), Fault.DROP_AFTER, 1);
    MetaStorage storage = open(path, SERVER.config(proxy, Map.of(GcsConfig.RETRIES.key(), "2")));
    StorageLocation file = file("unknown");
    byte[] mine = content("mine", 1024);

    assertThatThrownBy(() -> storage.createExclusive(file, mine))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining(file.toString());
    assertThat(storage.read(file)).isEqualTo(mine);
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void aRequestThatNeverArrivedIsRetried(Path path) throws Exception {
    FaultProxy proxy = proxy();
    proxy.inject(lastUploadRequest(path), Fault.DROP_BEFORE, 1);
    MetaStorage storage = open(path, SERVER.config(proxy, Map.of(GcsConfig.RETRIES.key(), "2")));
    StorageLocation file = file("retried");

    storage.createExclusive(file, content("mine", 100));

    assertThat(storage.read(file)).isEqualTo(content("mine", 100));
    assertThat(proxy.count(lastUploadRequest(path))).isEqualTo(2);
  }

  @Test
  void aRefusalBefore412StillMeansTheFileExisted() throws Exception {
    FaultProxy proxy = proxy();
    MetaStorage storage =
        open(Path.SINGLE_REQUEST, SERVER.config(proxy, Map.of(GcsConfig.RETRIES.key(), "2")));
    StorageLocation file = file("existing");
    storage.createExclusive(file, content("theirs", 10));
    // 429 proves the first attempt wrote nothing, so the 412 that follows is about another write.
    proxy.inject(FaultProxy.Request::isUpload, Fault.respondJson(429), 1);

    assertThatThrownBy(() -> storage.createExclusive(file, content("mine", 10)))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(proxy.count(FaultProxy.Request::isUpload)).isEqualTo(3);
  }

  @Test
  void a503ThatOutlastsTheRetriesIsAnUnknownOutcome() throws Exception {
    FaultProxy proxy = proxy();
    proxy.inject(FaultProxy.Request::isUpload, Fault.respondJson(503), 2);
    MetaStorage storage =
        open(Path.SINGLE_REQUEST, SERVER.config(proxy, Map.of(GcsConfig.RETRIES.key(), "1")));

    assertThatThrownBy(() -> storage.createExclusive(file("unavailable"), content("mine", 10)))
        .isInstanceOf(OutcomeUnknownException.class);
    assertThat(proxy.count(FaultProxy.Request::isUpload)).isEqualTo(2);
  }

  @Test
  void aRefusedConnectionIsAPlainFailure() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      closedPort = socket.getLocalPort();
    }
    Map<String, String> config = new HashMap<>(SERVER.config());
    config.put(GcsConfig.ENDPOINT.key(), "http://127.0.0.1:" + closedPort);
    config.put(GcsConfig.RETRIES.key(), "1");
    MetaStorage storage = open(Path.SINGLE_REQUEST, config);

    assertThatThrownBy(() -> storage.createExclusive(file("refused"), content("mine", 10)))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(OutcomeUnknownException.class)
        .isNotInstanceOf(FileAlreadyExistsException.class);
  }

  /**
   * The request that finishes an upload: the multipart POST, or the resumable session's last PUT.
   */
  private static java.util.function.Predicate<FaultProxy.Request> lastUploadRequest(Path path) {
    return path == Path.SINGLE_REQUEST
        ? r -> r.isUpload() && r.method().equals("POST")
        : r -> r.isUpload() && r.method().equals("PUT");
  }

  private static void assertUpload(FaultProxy.Request request, String uploadType) {
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.target())
        .startsWith("/upload/storage/v1/b/")
        .contains("uploadType=" + uploadType)
        .contains("ifGenerationMatch=0");
  }

  private FaultProxy proxy() throws IOException {
    FaultProxy proxy = SERVER.proxy();
    closeables.add(proxy);
    return proxy;
  }

  private MetaStorage open(Path path, Map<String, String> base) throws IOException {
    Map<String, String> config = new HashMap<>(base);
    config.putAll(path.config);
    MetaStorage storage = MetaStorages.open(StorageLocation.of("gs://" + bucket), config);
    closeables.add(0, storage);
    return storage;
  }

  private StorageLocation file(String path) {
    return StorageLocation.of("gs://" + bucket + "/" + path);
  }

  private static byte[] content(String seed, int length) {
    byte[] pattern = (seed + "\n").getBytes(UTF_8);
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = pattern[i % pattern.length];
    }
    return bytes;
  }
}
