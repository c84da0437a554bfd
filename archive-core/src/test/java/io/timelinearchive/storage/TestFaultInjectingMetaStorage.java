package io.timelinearchive.storage;

import static io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect.FULL;
import static io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect.NONE;
import static io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect.TORN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.FaultInjectingMetaStorage.CrashEffect;
import io.timelinearchive.storage.FaultInjectingMetaStorage.SimulatedCrash;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TestFaultInjectingMetaStorage {
  private String volume;
  private MetaStorage store;
  private StorageLocation root;

  @BeforeEach
  void openVolume() throws IOException {
    volume = "faults-" + UUID.randomUUID();
    root = StorageLocation.of("memory://" + volume + "/t");
    store = new InMemoryMetaStorageFactory().open(root, Map.of());
  }

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(volume);
  }

  /** A small scripted run: 2 creates, 3 appends, a delete of 3 files: 8 mutating steps. */
  private void run(MetaStorage storage) throws IOException {
    storage.createExclusive(root.resolve("a"), new byte[] {1});
    storage.createExclusive(root.resolve("b"), new byte[] {2});
    storage.read(root.resolve("a"));
    try (AppendableLog log = storage.openLog(root.resolve("log")).orElseThrow()) {
      log.append(new byte[] {10, 11});
      log.append(new byte[] {12, 13});
      log.append(new byte[] {14, 15});
    }
    storage.list(root).toList();
    storage.deleteAll(List.of(root.resolve("a"), root.resolve("missing"), root.resolve("b")));
  }

  private List<String> names() throws IOException {
    List<String> names = new ArrayList<>();
    for (FileEntry entry : store.list(root).toList()) {
      names.add(entry.name());
    }
    return names;
  }

  @Test
  void testRecordingCountsMutatingStepsOnly() throws Exception {
    FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(store);

    run(recording);

    assertThat(recording.mutatingSteps()).isEqualTo(8);
    assertThat(recording.crashed()).isFalse();
    assertThat(names()).containsExactly("log");
    assertThat(store.read(root.resolve("log"))).containsExactly(10, 11, 12, 13, 14, 15);
  }

  @Test
  void testCrashAtEveryStepStopsExactlyThere() throws Exception {
    // the loop a crash-safety test runs, checked against the script's own steps
    FaultInjectingMetaStorage recording = FaultInjectingMetaStorage.recording(store);
    run(recording);
    int steps = recording.mutatingSteps();

    for (int k = 1; k <= steps; k++) {
      for (CrashEffect effect : CrashEffect.values()) {
        dropVolume();
        openVolume();
        FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, k, effect);

        assertThatThrownBy(() -> run(crashing))
            .as("crash at step %s, %s", k, effect)
            .isInstanceOf(SimulatedCrash.class)
            .hasMessageContaining("simulated crash at step " + k);
        assertThat(crashing.crashed()).isTrue();
        assertThat(crashing.mutatingSteps()).isEqualTo(k);
        int completed = effect == FULL ? k : k - 1;
        assertThat(names())
            .as("files after a crash at step %s, %s", k, effect)
            .containsExactlyElementsOf(expectedFiles(completed, k));
      }
    }
  }

  private static List<String> expectedFiles(int completedSteps, int crashStep) {
    // steps: 1 create a, 2 create b, 3-5 appends, 6 delete a, 7 delete missing, 8 delete b;
    // the log is opened after step 2 returns, so only a crash after that finds it
    List<String> files = new ArrayList<>();
    if (completedSteps >= 1 && completedSteps < 6) {
      files.add("a");
    }
    if (completedSteps >= 2 && completedSteps < 8) {
      files.add("b");
    }
    if (crashStep >= 3) {
      files.add("log");
    }
    return files;
  }

  @Test
  void testCreateExclusiveCrashWithoutEffect() throws Exception {
    FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 1, NONE);

    assertThatThrownBy(() -> crashing.createExclusive(root.resolve("a"), new byte[] {1}))
        .isInstanceOf(SimulatedCrash.class)
        .hasMessageContaining("createExclusive memory://" + volume + "/t/a");

    assertThat(names()).isEmpty();
  }

  @Test
  void testCreateExclusiveCrashAfterTheFileIsCreated() throws Exception {
    FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 1, FULL);

    assertThatThrownBy(() -> crashing.createExclusive(root.resolve("a"), new byte[] {1}))
        .isInstanceOf(SimulatedCrash.class);

    assertThat(store.read(root.resolve("a"))).containsExactly(1);
  }

  @Test
  void testTornCreateExclusiveCreatesNothing() throws Exception {
    FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 1, TORN);

    assertThatThrownBy(() -> crashing.createExclusive(root.resolve("a"), new byte[] {1}))
        .isInstanceOf(SimulatedCrash.class);

    assertThat(names()).isEmpty();
  }

  @Test
  void testAppendCrashes() throws Exception {
    byte[] bytes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    for (CrashEffect effect : CrashEffect.values()) {
      StorageLocation file = root.resolve("log-" + effect);
      FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 2, effect);
      try (AppendableLog log = crashing.openLog(file).orElseThrow()) {
        log.append(new byte[] {0});
        assertThatThrownBy(() -> log.append(bytes)).isInstanceOf(SimulatedCrash.class);
        assertThatThrownBy(() -> log.append(bytes))
            .isInstanceOf(SimulatedCrash.class)
            .hasMessageContaining("crashed earlier");
      }

      byte[] content = store.read(file);
      assertThat(content[0]).isZero();
      byte[] landed = Arrays.copyOfRange(content, 1, content.length);
      switch (effect) {
        case NONE -> assertThat(landed).isEmpty();
        case FULL -> assertThat(landed).isEqualTo(bytes);
        case TORN -> assertThat(bytes).startsWith(landed).hasSizeGreaterThan(landed.length);
      }
    }
  }

  @Test
  void testTornAppendsCutAtVariousPlaces() throws Exception {
    byte[] bytes = new byte[100];
    Set<Integer> cuts = new HashSet<>();
    for (long seed = 0; seed < 40; seed++) {
      StorageLocation file = root.resolve("log-" + seed);
      FaultInjectingMetaStorage crashing =
          FaultInjectingMetaStorage.crashingAt(store, 1, TORN, seed);
      try (AppendableLog log = crashing.openLog(file).orElseThrow()) {
        assertThatThrownBy(() -> log.append(bytes))
            .isInstanceOf(SimulatedCrash.class)
            .hasMessageContaining("of 100 bytes written");
      }
      int landed = store.read(file).length;
      assertThat(landed).isBetween(0, 99);
      cuts.add(landed);
    }
    assertThat(cuts).hasSizeGreaterThan(10);
  }

  @ParameterizedTest
  @EnumSource(CrashEffect.class)
  void testDeleteAllCrashesAtOneFile(CrashEffect effect) throws Exception {
    for (String name : List.of("f1", "f2", "f3", "f4", "f5")) {
      store.createExclusive(root.resolve(name), new byte[] {1});
    }
    FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 4, effect);
    crashing.createExclusive(root.resolve("f6"), new byte[] {1}); // step 1

    // steps 2..6 are the files f1..f5: the crash is at f3
    assertThatThrownBy(
            () ->
                crashing.deleteAll(
                    List.of(
                        root.resolve("f1"),
                        root.resolve("f2"),
                        root.resolve("f3"),
                        root.resolve("f4"),
                        root.resolve("f5"))))
        .isInstanceOf(SimulatedCrash.class)
        .hasMessageContaining("deleteAll at memory://" + volume + "/t/f3");

    assertThat(crashing.mutatingSteps()).isEqualTo(4);
    if (effect == FULL) {
      assertThat(names()).containsExactly("f4", "f5", "f6");
    } else {
      assertThat(names()).containsExactly("f3", "f4", "f5", "f6");
    }
  }

  @Test
  void testEverythingFailsAfterTheCrash() throws Exception {
    StorageLocation a = root.resolve("a");
    store.createExclusive(a, new byte[] {1, 2, 3});
    FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 1, NONE);
    FileIterator listing = crashing.list(root);
    InputStream stream = crashing.open(a);
    AppendableLog log = crashing.openLog(root.resolve("log")).orElseThrow();

    assertThatThrownBy(() -> crashing.deleteAll(List.of(a))).isInstanceOf(SimulatedCrash.class);

    assertThatThrownBy(() -> crashing.list(root)).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(listing::hasNext).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(listing::next).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> crashing.read(a)).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> crashing.open(a)).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(stream::read).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> stream.read(new byte[2])).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> crashing.createExclusive(root.resolve("b"), new byte[0]))
        .isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> crashing.openLog(root.resolve("log")))
        .isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> log.append(new byte[] {1})).isInstanceOf(SimulatedCrash.class);
    assertThatThrownBy(() -> crashing.deleteAll(List.of())).isInstanceOf(SimulatedCrash.class);
    // steps after the crash are not steps: the process is gone
    assertThat(crashing.mutatingSteps()).isEqualTo(1);

    stream.close();
    log.close();
    crashing.close();
    assertThat(store.read(a)).containsExactly(1, 2, 3);
  }

  @Test
  void testNoCrashBeyondTheLastStep() throws Exception {
    FaultInjectingMetaStorage crashing = FaultInjectingMetaStorage.crashingAt(store, 9, TORN);

    run(crashing);

    assertThat(crashing.crashed()).isFalse();
    assertThat(crashing.mutatingSteps()).isEqualTo(8);
  }

  @Test
  void testIsSimulatedCrashLooksThroughCausesAndSuppressed() {
    SimulatedCrash crash = new SimulatedCrash("x");
    IOException other = new IOException("other");
    IOException withSuppressed = new IOException("outer");
    withSuppressed.addSuppressed(crash);

    assertThat(FaultInjectingMetaStorage.isSimulatedCrash(crash)).isTrue();
    assertThat(FaultInjectingMetaStorage.isSimulatedCrash(new UncheckedIOException(crash)))
        .isTrue();
    assertThat(FaultInjectingMetaStorage.isSimulatedCrash(new RuntimeException(withSuppressed)))
        .isTrue();
    assertThat(FaultInjectingMetaStorage.isSimulatedCrash(other)).isFalse();
  }

  @Test
  void testInvalidCrashStep() {
    assertThatThrownBy(() -> FaultInjectingMetaStorage.crashingAt(store, 0, NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("crash step");
  }

  /** While it does not crash, the storage keeps the contract of the one it wraps. */
  @Nested
  class WhileRecording extends AbstractMetaStorageContractTest {
    private FaultInjectingMetaStorage recording;

    @BeforeEach
    void wrap() {
      // after the enclosing class's @BeforeEach opened the store
      recording = FaultInjectingMetaStorage.recording(store);
    }

    @Override
    protected MetaStorage storage() {
      return recording;
    }

    @Override
    protected StorageLocation newRootFolder() {
      return root.resolve(UUID.randomUUID().toString());
    }

    @Override
    protected boolean hasAppend() {
      return true;
    }
  }
}
