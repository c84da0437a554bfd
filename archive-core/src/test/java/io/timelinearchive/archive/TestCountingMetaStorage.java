package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.WithoutAppendMetaStorage;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The decorator keeps the contract of what it counts, and counts every kind of call. */
class TestCountingMetaStorage extends AbstractMetaStorageContractTest {
  private String volume;
  private CountingMetaStorage storage;

  @BeforeEach
  void openVolume() throws IOException {
    volume = "counting-" + UUID.randomUUID();
    storage =
        new CountingMetaStorage(
            new InMemoryMetaStorageFactory()
                .open(StorageLocation.of("memory://" + volume), Map.of()));
  }

  @AfterEach
  void dropVolume() throws IOException {
    storage.close();
    InMemoryMetaStorageFactory.dropVolume(volume);
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return StorageLocation.of("memory://" + volume + "/" + UUID.randomUUID());
  }

  @Override
  protected boolean hasAppend() {
    return true;
  }

  @Test
  void testPassesOnTheServiceRequestsTheStoreCounts() throws Exception {
    Map<String, Long> counts = Map.of("GetObject", 3L);
    MetaStorage counted =
        new ForwardingMetaStorage(storage) {
          @Override
          public Map<String, Long> serviceRequests() {
            return counts;
          }
        };

    assertThat(storage.serviceRequests()).isEmpty();
    assertThat(new CountingMetaStorage(counted).serviceRequests()).isEqualTo(counts);
  }

  @Test
  void testCountsEachKind() throws Exception {
    StorageLocation a = root().resolve("a");
    StorageLocation log = root().resolve("log");
    assertThat(storage.counts()).isEqualTo(RequestCounts.ZERO);

    storage.createExclusive(a, new byte[] {1});
    storage.read(a);
    storage.read(a);
    try (InputStream in = storage.open(a)) {
      in.readAllBytes();
    }
    storage.list(root()).toList();
    storage.listFolders(root()); // a listing too
    try (AppendableLog appendable = storage.openLog(log).orElseThrow()) {
      appendable.append(new byte[] {1});
      appendable.append(new byte[] {2});
      appendable.append(new byte[] {3});
    }
    storage.deleteAll(List.of(a, log, root().resolve("missing")));
    storage.deleteAll(List.of());

    RequestCounts counts = storage.counts();
    assertThat(counts).isEqualTo(new RequestCounts(2, 2, 1, 1, 1, 3, 3, 2));
    assertThat(counts.calls()).isEqualTo(2 + 2 + 1 + 1 + 1 + 3 + 2);
    assertThat(counts)
        .hasToString(
            "list=2 read=2 open=1 createExclusive=1 openLog=1 append=3 delete=3 files in 2 calls");
  }

  @Test
  void testFailedCallsCount() throws Exception {
    StorageLocation missing = root().resolve("missing");

    assertThatThrownBy(() -> storage.read(missing)).isInstanceOf(NoSuchFileException.class);
    storage.createExclusive(missing, new byte[0]);
    assertThatThrownBy(() -> storage.createExclusive(missing, new byte[0]))
        .isInstanceOf(IOException.class);

    assertThat(storage.counts().read()).isEqualTo(1);
    assertThat(storage.counts().createExclusive()).isEqualTo(2);
  }

  @Test
  void testSnapshotsAreValuesAndSubtract() throws Exception {
    StorageLocation a = root().resolve("a");
    storage.createExclusive(a, new byte[] {1});
    RequestCounts before = storage.counts();

    storage.read(a);
    storage.read(a);
    storage.list(root());

    assertThat(before).isEqualTo(new RequestCounts(0, 0, 0, 1, 0, 0, 0, 0));
    assertThat(storage.counts().minus(before)).isEqualTo(new RequestCounts(1, 2, 0, 0, 0, 0, 0, 0));
    assertThat(before.plus(storage.counts().minus(before))).isEqualTo(storage.counts());
    assertThatThrownBy(() -> before.minus(storage.counts()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative request count");
  }

  @Test
  void testCountsCallsFromManyThreads() throws Exception {
    StorageLocation a = root().resolve("a");
    storage.createExclusive(a, new byte[] {1});
    int threads = 8;
    int readsEach = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < readsEach; i++) {
                    storage.read(a);
                  }
                  storage.deleteAll(List.of(root().resolve("x"), root().resolve("y")));
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }

    RequestCounts counts = storage.counts();
    assertThat(counts.read()).isEqualTo((long) threads * readsEach);
    assertThat(counts.deleteCalls()).isEqualTo(threads);
    assertThat(counts.deletedFiles()).isEqualTo(2L * threads);
  }

  @Test
  void testStoreWithoutAppendCountsTheOpenOnly() throws Exception {
    // a storage without append, made from the counted one by hiding openLog
    MetaStorage memory = storage;
    CountingMetaStorage counting = new CountingMetaStorage(new WithoutAppendMetaStorage(memory));

    assertThat(counting.openLog(root().resolve("log"))).isEmpty();
    assertThat(counting.counts()).isEqualTo(new RequestCounts(0, 0, 0, 0, 1, 0, 0, 0));
  }
}
