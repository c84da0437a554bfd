package io.timelinearchive.hudi1;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.lsm.Hudi1Instant;
import io.timelinearchive.lsm.Hudi1InstantFileName;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.State;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;

/** A table on local disk as Hudi 1.0.1 and as we read it, for comparing the two. */
final class Hudi1Reads {
  private Hudi1Reads() {}

  /** Hudi's instant as ours. */
  static Hudi1Instant of(HoodieInstant i) {
    State state =
        switch (i.getState()) {
          case REQUESTED -> State.REQUESTED;
          case INFLIGHT -> State.INFLIGHT;
          case COMPLETED -> State.COMPLETED;
          default -> throw new IllegalStateException("state " + i.getState());
        };
    return new Hudi1Instant(
        i.requestedTime(),
        i.getAction(),
        state,
        state == State.COMPLETED ? Optional.ofNullable(i.getCompletionTime()) : Optional.empty());
  }

  /** Hudi's instant among {@code instants} that is {@code ours}. */
  static HoodieInstant hudiInstant(List<HoodieInstant> instants, Hudi1Instant ours) {
    return instants.stream()
        .filter(i -> of(i).equals(ours))
        .findFirst()
        .orElseThrow(() -> new AssertionError("Hudi has no " + ours));
  }

  static HoodieTableMetaClient metaClient(Path table) {
    return HoodieTableMetaClient.builder()
        .setConf(HadoopFSUtils.getStorageConf(new Configuration()))
        .setBasePath("file://" + table.toAbsolutePath())
        .build();
  }

  static StorageLocation base(Path table) {
    return StorageLocation.of(table.toUri().toString());
  }

  static MetaStorage storage(Path table) throws IOException {
    return MetaStorages.open(base(table), Map.of());
  }

  /**
   * Hudi 1.0.1 reads the active timeline and the history: each completed instant written is in
   * exactly one of them, and those in the history have the bytes their file had.
   *
   * @param completedFiles every completed instant file the table had, by name
   */
  static void assertHudiReadsEverything(Path table, Map<String, byte[]> completedFiles) {
    HoodieTableMetaClient hudi = metaClient(table);
    HoodieArchivedTimeline archived = hudi.getArchivedTimeline();
    archived.loadInstantDetailsInMemory("0", "99999999999999999");
    List<String> inHistory = archived.getInstants().stream().map(i -> key(of(i))).sorted().toList();
    List<String> inActive =
        hudi.getActiveTimeline().filterCompletedInstants().getInstants().stream()
            .map(i -> key(of(i)))
            .sorted()
            .toList();
    Set<String> written = new TreeSet<>();
    Map<String, byte[]> bytesByKey = new HashMap<>();
    completedFiles.forEach(
        (name, bytes) -> {
          Hudi1InstantFileName.Result r = Hudi1InstantFileName.parse(name);
          Hudi1InstantFileName.Result.Parsed p = (Hudi1InstantFileName.Result.Parsed) r;
          String key = p.requestedTime() + " " + p.action();
          written.add(key);
          bytesByKey.put(key, bytes);
        });

    assertThat(inHistory).as("history").doesNotHaveDuplicates().isNotEmpty();
    List<String> both = new ArrayList<>(inHistory);
    both.retainAll(inActive);
    assertThat(both).as("in both the history and the active timeline").isEmpty();
    List<String> all = new ArrayList<>(inHistory);
    all.addAll(inActive);
    assertThat(new TreeSet<>(all)).as("history and active timeline").isEqualTo(written);
    for (HoodieInstant instant : archived.getInstants()) {
      byte[] original = bytesByKey.get(key(of(instant)));
      byte[] expected = original.length == 0 ? null : original;
      assertThat(archived.getInstantDetails(instant).orElse(null))
          .as("details of %s", instant)
          .isEqualTo(expected);
    }
  }

  static String key(Hudi1Instant i) {
    return i.requestedTime() + " " + i.action();
  }

  /** The completed instant files of the table's active timeline, by name. */
  static Map<String, byte[]> completedFiles(Path table) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> listing = Files.list(table.resolve(".hoodie/timeline"))) {
      for (Path p : listing.filter(Files::isRegularFile).toList()) {
        if (Hudi1InstantFileName.parse(p.getFileName().toString())
                instanceof Hudi1InstantFileName.Result.Parsed parsed
            && parsed.state() == State.COMPLETED) {
          files.put(p.getFileName().toString(), Files.readAllBytes(p));
        }
      }
    }
    return files;
  }
}
