package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpMethod;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.OutcomeUnknownException;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Conditional writes whose first attempt took effect but whose answer was lost, so the SDK retried
 * them: the faults are injected in the client's pipeline, the server is a real Azurite.
 */
@ExtendWith(Azurite.Extension.class)
class TestAzureConditionalWritesAzurite {
  private static final RequestRetryOptions QUICK_RETRIES =
      new RequestRetryOptions(
          RetryPolicyType.FIXED,
          3,
          (Duration) null,
          Duration.ofMillis(5),
          Duration.ofMillis(5),
          null);

  private final LostResponses faults = new LostResponses();
  private final RequestLog requests = new RequestLog();
  private BlobContainerClient container;
  private StorageLocation root;
  private AzureMetaStorage storage;

  @BeforeEach
  void openStorage() {
    container = Azurite.get().newContainer();
    root = Azurite.rootOf(container.getBlobContainerName());
    storage = openStorage(AzureMetaStorage.MAX_APPEND_BLOCKS);
  }

  private AzureMetaStorage openStorage(int appendBlockLimit) {
    return new AzureMetaStorage(
        AzureConfig.from(root, Azurite.get().config()),
        QUICK_RETRIES,
        appendBlockLimit,
        // the log sits nearer the network than the fault, so it sees the lost answers too
        List.of(faults, requests));
  }

  @AfterEach
  void closeStorage() {
    storage.close();
    container.delete();
  }

  @Test
  void retriedAppendWithStalePositionIsRefusedAndNotDuplicated() throws Exception {
    StorageLocation file = root.resolve("archived/.commits_.archive.1_1-0-1");
    byte[] first = bytes(1000, 1);
    byte[] second = bytes(700, 2);
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(first);
      faults.loseNext(1, request -> request.getUrl().toString().contains("comp=appendblock"));
      requests.clear();

      log.append(second);

      assertThat(faults.pending()).as("fault injected").isZero();
      // The retry carried the same append position and the server refused it: no second copy.
      assertThat(requests.attempts(RequestLog.Attempt::isAppendBlock))
          .extracting(RequestLog.Attempt::status)
          .containsExactly(201, 412);
      assertThat(log.length()).isEqualTo(1700);
    }
    assertThat(storage.read(file)).isEqualTo(concat(first, second));
    assertThat(container.getBlobClient(file.path()).getProperties().getCommittedBlockCount())
        .isEqualTo(2);
  }

  @Test
  void appendAfterAnotherWriterAppendedFails() throws Exception {
    StorageLocation file = root.resolve("log");
    byte[] first = bytes(100, 3);
    byte[] foreign = bytes(30, 4);
    try (AppendableLog log = storage.openLog(file).orElseThrow();
        AppendableLog other = storage.openLog(file).orElseThrow()) {
      log.append(first);
      // `other` still expects position 0; its block must not land after bytes it never saw
      assertThatThrownBy(() -> other.append(foreign))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("another writer appended");
      // and once an append failed, the log refuses further appends
      assertThatThrownBy(() -> other.append(foreign))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("reopen the log");
    }
    assertThat(storage.read(file)).isEqualTo(first);
  }

  @Test
  void retriedCreateThatFindsTheFileIsOutcomeUnknown() throws Exception {
    StorageLocation file = root.resolve("archived/lock");
    byte[] content = bytes(64, 5);
    faults.loseNext(1, request -> request.getHttpMethod() == HttpMethod.PUT);

    // The first attempt created the blob; the retry cannot tell it from a rival's blob.
    assertThatThrownBy(() -> storage.createExclusive(file, content))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining(file.toString());

    assertThat(requests.attempts(a -> a.method() == HttpMethod.PUT))
        .extracting(RequestLog.Attempt::status)
        .containsExactly(201, 409);
    assertThat(storage.read(file)).isEqualTo(content);
  }

  @Test
  void createRefusedOnFirstAttemptIsAlreadyExists() throws Exception {
    StorageLocation file = root.resolve("file");
    storage.createExclusive(file, bytes(10, 6));

    assertThatThrownBy(() -> storage.createExclusive(file, bytes(10, 7)))
        .isInstanceOf(FileAlreadyExistsException.class)
        .isNotInstanceOf(OutcomeUnknownException.class);
    assertThat(storage.read(file)).isEqualTo(bytes(10, 6));
  }

  @Test
  void largeAppendIsSplitIntoServiceSizedBlocks() throws Exception {
    StorageLocation file = root.resolve("log");
    byte[] large = bytes(2 * AzureAppendableLog.MAX_BLOCK_BYTES + 5, 8);
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(large);
      assertThat(log.length()).isEqualTo(large.length);
    }
    assertThat(storage.read(file)).isEqualTo(large);
    assertThat(container.getBlobClient(file.path()).getProperties().getCommittedBlockCount())
        .isEqualTo(3);
  }

  @Test
  void openLogRefusesAnAppendBlobNearTheBlockLimit() throws Exception {
    // limit 20 keeps a headroom of 2 blocks: a blob of more than 18 blocks is not reopened
    storage.close();
    storage = openStorage(20);
    StorageLocation file = root.resolve("log");
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      for (int i = 0; i < 18; i++) {
        byte[] block = bytes(10, 100 + i);
        log.append(block);
        written.writeBytes(block);
      }
      // an append that would pass the limit is refused before it writes anything
      byte[] tooLarge = bytes(2 * AzureAppendableLog.MAX_BLOCK_BYTES + 1, 9);
      assertThatThrownBy(() -> log.append(tooLarge))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("cannot take 3 more");
      assertThat(storage.read(file)).isEqualTo(written.toByteArray());
    }
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(bytes(10, 200));
    }

    assertThatThrownBy(() -> storage.openLog(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("holds 19 blocks, near the append blob limit");
  }

  @Test
  void openLogRefusesASealedAppendBlob() throws Exception {
    StorageLocation file = root.resolve("log");
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(bytes(10, 10));
    }
    container.getBlobClient(file.path()).getAppendBlobClient().seal();

    assertThatThrownBy(() -> storage.openLog(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("sealed");
  }

  private static byte[] bytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
