package io.timelinearchive.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;
import io.timelinearchive.testing.FaultProxy.Rule;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The backend behind a proxy that fails chosen requests on their way to S3Proxy: retries happen,
 * and a retried conditional create ends as "exists", as "ours" after a read-back, or as {@link
 * OutcomeUnknownException} — never as a false success or a false "exists".
 */
class TestS3MetaStorageFaults {
  private static final S3ProxyServer SERVER = S3ProxyServer.shared();

  private FaultProxy proxy;
  private String bucket;
  private MetaStorage storage;

  @BeforeEach
  void setUp() throws IOException {
    bucket = SERVER.newBucket();
    proxy = new FaultProxy(SERVER.endpoint());
    storage = open(Map.of());
  }

  private MetaStorage open(Map<String, String> extra) throws IOException {
    Map<String, String> config = new HashMap<>(SERVER.config());
    config.put(S3Config.ENDPOINT.key(), proxy.endpoint().toString());
    config.put(S3Config.MAX_RETRIES.key(), "2");
    config.put(S3Config.SOCKET_TIMEOUT.key(), "5s");
    config.putAll(extra);
    return new S3MetaStorageFactory().open(StorageLocation.of("s3://" + bucket), config);
  }

  @AfterEach
  void tearDown() throws IOException {
    storage.close();
    proxy.close();
  }

  private StorageLocation at(String path) {
    return StorageLocation.of("s3://" + bucket + "/" + path);
  }

  private Map<String, Long> counts() {
    return S3MetaStorageFactory.requestCounts(storage).orElseThrow();
  }

  private void putBehindTheBack(String key, String content) {
    SERVER.admin().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(content));
  }

  @Test
  void readIsRetriedAfter503AndDroppedConnection() throws Exception {
    putBehindTheBack("t/a", "content");
    proxy.rule(Rule.first(1, Request::isGetObject, Fault.respond(503, "SlowDown")));
    assertThat(storage.read(at("t/a"))).isEqualTo("content".getBytes(UTF_8));

    proxy.rule(Rule.first(1, Request::isGetObject, Fault.DROP_BEFORE));
    assertThat(storage.read(at("t/a"))).isEqualTo("content".getBytes(UTF_8));

    assertThat(counts()).isEqualTo(Map.of("GetObject", 4L));
  }

  @Test
  void createWhoseAnswerWasLostIsUnknownAndReadsBackAsOurs() throws Exception {
    proxy.rule(Rule.first(1, Request::isPutObject, Fault.DROP_AFTER));
    byte[] ours = "ours".getBytes(UTF_8);

    assertThatThrownBy(() -> storage.createExclusive(at("t/lock"), ours))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("2 attempt(s)")
        .hasMessageContaining(at("t/lock").toString());

    assertThat(storage.read(at("t/lock"))).as("the caller's read-back: ours").isEqualTo(ours);
    assertThat(counts()).containsEntry("PutObject", 2L);
  }

  @Test
  void retriedCreateOverSomeoneElsesFileIsUnknownAndReadsBackAsTheirs() throws Exception {
    putBehindTheBack("t/lock", "theirs");
    proxy.rule(Rule.first(1, Request::isPutObject, Fault.respond(500, "InternalError")));

    assertThatThrownBy(() -> storage.createExclusive(at("t/lock"), "ours".getBytes(UTF_8)))
        .isInstanceOf(OutcomeUnknownException.class);

    assertThat(storage.read(at("t/lock")))
        .as("the caller's read-back: exists")
        .isEqualTo("theirs".getBytes(UTF_8));
  }

  @Test
  void createRefusedOnItsOnlyAttemptExists() throws Exception {
    putBehindTheBack("t/lock", "theirs");

    assertThatThrownBy(() -> storage.createExclusive(at("t/lock"), "ours".getBytes(UTF_8)))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(counts()).isEqualTo(Map.of("PutObject", 1L));
  }

  @Test
  void createThatNeverReachedTheServerIsUnknownAndAbsent() throws Exception {
    proxy.rule(Rule.every(Request::isPutObject, Fault.DROP_BEFORE));

    assertThatThrownBy(() -> storage.createExclusive(at("t/lock"), "ours".getBytes(UTF_8)))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("3 attempt(s)");

    assertThatThrownBy(() -> storage.read(at("t/lock"))).isInstanceOf(NoSuchFileException.class);
    assertThat(counts()).containsEntry("PutObject", 3L);
  }

  @Test
  void conflictOnTheOnlyAttemptIsTriedAgain() throws Exception {
    proxy.rule(
        Rule.first(2, Request::isPutObject, Fault.respond(409, "ConditionalRequestConflict")));

    storage.createExclusive(at("t/lock"), "ours".getBytes(UTF_8));

    assertThat(storage.read(at("t/lock"))).isEqualTo("ours".getBytes(UTF_8));
    assertThat(counts()).containsEntry("PutObject", 3L);
  }

  @Test
  void conflictAfterARetryIsUnknown() throws Exception {
    AtomicRule rule = new AtomicRule();
    proxy.rule(rule);

    assertThatThrownBy(() -> storage.createExclusive(at("t/lock"), "ours".getBytes(UTF_8)))
        .isInstanceOf(OutcomeUnknownException.class);
    assertThat(counts()).containsEntry("PutObject", 2L);
  }

  /** The first PUT gets a 500 (retried by the SDK), the second a 409 conflict. */
  private static final class AtomicRule implements Rule {
    private int puts;

    @Override
    public synchronized Fault decide(Request request) {
      if (!request.isPutObject()) {
        return Fault.FORWARD;
      }
      puts++;
      return puts == 1
          ? Fault.respond(500, "InternalError")
          : Fault.respond(409, "ConditionalRequestConflict");
    }
  }

  @Test
  void lostMultipartCompletionEndsAsOursOrUnknown() throws Exception {
    storage.close();
    storage =
        open(Map.of(S3Config.MULTIPART_THRESHOLD.key(), "5MiB", S3Config.PART_SIZE.key(), "5MiB"));
    byte[] ours = new byte[6 << 20];
    new Random(3).nextBytes(ours);
    proxy.rule(Rule.first(1, Request::isCompleteMultipartUpload, Fault.DROP_AFTER));

    Throwable thrown = catchThrowable(() -> storage.createExclusive(at("t/archive"), ours));

    // Either the retried completion was answered as done, or it cannot be told: never "exists".
    if (thrown != null) {
      assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
    }
    assertThat(storage.read(at("t/archive"))).isEqualTo(ours);
    assertThat(counts()).containsEntry("CompleteMultipartUpload", 2L);
  }

  @Test
  void failedBatchNamesEachOfItsFilesAndOtherBatchesAreDeleted() throws Exception {
    storage.close();
    storage =
        open(
            Map.of(S3Config.DELETE_BATCH_SIZE.key(), "4", S3Config.REQUEST_PARALLELISM.key(), "2"));
    List<String> keys = IntStream.range(0, 10).mapToObj(i -> "d/f" + i).toList();
    keys.forEach(k -> putBehindTheBack(k, k));
    proxy.rule(
        Rule.every(
            r -> r.isDeleteObjects() && r.bodyText().contains("<Key>d/f5</Key>"),
            Fault.respond(500, "InternalError")));

    DeleteFailedException failed =
        (DeleteFailedException)
            catchThrowable(() -> storage.deleteAll(keys.stream().map(this::at).toList()));

    assertThat(failed).isNotNull();
    assertThat(failed.failures().keySet())
        .containsExactly(at("d/f4"), at("d/f5"), at("d/f6"), at("d/f7"));
    assertThat(failed.failures().values())
        .allSatisfy(reason -> assertThat(reason).contains("InternalError"));
    assertThat(
            SERVER.admin().listObjectsV2(b -> b.bucket(bucket).prefix("d/")).contents().stream()
                .map(o -> o.key()))
        .containsExactly("d/f4", "d/f5", "d/f6", "d/f7");
    // two good batches, and the bad one tried 3 times
    assertThat(counts()).isEqualTo(Map.of("DeleteObjects", 5L));
  }
}
