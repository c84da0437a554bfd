package io.timelinearchive.hudi1;

import io.timelinearchive.lsm.Hudi1Instant;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.State;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.table.HoodieTableMetaClient;
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
}
