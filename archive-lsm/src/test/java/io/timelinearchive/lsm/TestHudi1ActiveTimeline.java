package io.timelinearchive.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The active timeline of a Hudi 1.x table, from one listing of .hoodie/timeline/. */
class TestHudi1ActiveTimeline {
  @TempDir Path table;

  private HoodieTable write(String properties, String... timelineFiles) throws IOException {
    Path meta = Files.createDirectories(table.resolve(".hoodie"));
    Files.writeString(meta.resolve("hoodie.properties"), properties);
    Files.createDirectories(meta.resolve("timeline/history"));
    for (String name : timelineFiles) {
      Files.writeString(meta.resolve("timeline").resolve(name), name);
    }
    try (MetaStorage storage = storage()) {
      return HoodieTable.inspect(storage, base());
    }
  }

  private StorageLocation base() {
    return StorageLocation.of(table.toUri().toString());
  }

  private MetaStorage storage() throws IOException {
    return MetaStorages.open(base(), Map.of());
  }

  @Test
  void everyStateFileIsListedAndHudisViewKeepsTheLatestStateOfEach() throws IOException {
    HoodieTable hoodieTable =
        write(
            "hoodie.table.name=t\nhoodie.table.version=8\nhoodie.timeline.layout.version=2\n",
            "101.commit.requested",
            "101.inflight",
            "101_105.commit",
            "103.compaction.requested",
            "103.compaction.inflight",
            "103_107.commit",
            "109.clean.requested",
            "hoodie.properties.backup",
            "110.frobnicate");
    try (MetaStorage storage = storage()) {
      Hudi1ActiveTimeline active = Hudi1ActiveTimeline.load(storage, hoodieTable);

      assertThat(active.instants())
          .extracting(Hudi1InstantFileName::of)
          .containsExactly(
              "101.commit.requested",
              "101.inflight",
              "101_105.commit",
              "103.compaction.requested",
              "103.compaction.inflight",
              "103_107.commit",
              "109.clean.requested");
      assertThat(active.latestStates())
          .extracting(f -> f.instant().toString())
          .containsExactly(
              "101 commit COMPLETED (completed 105)",
              "103 commit COMPLETED (completed 107)",
              "109 clean REQUESTED");
      assertThat(active.malformed())
          .extracting(Hudi1InstantFileName.Result.Malformed::fileName)
          .containsExactly("110.frobnicate");
      assertThat(Hudi1ActiveTimeline.read(storage, active.files().get(2)))
          .asString()
          .isEqualTo("101_105.commit");
    }
  }

  @Test
  void aLegacyCompletedNameCompletesAtItsModificationTimeInTheTablesZone() throws IOException {
    HoodieTable hoodieTable =
        write(
            "hoodie.table.name=t\nhoodie.table.version=8\nhoodie.timeline.layout.version=2\n"
                + "hoodie.table.timeline.timezone=UTC\n",
            "20240101000000000.commit");
    Files.setLastModifiedTime(
        table.resolve(".hoodie/timeline/20240101000000000.commit"),
        FileTime.from(Instant.parse("2024-01-02T03:04:05.678Z")));
    try (MetaStorage storage = storage()) {
      assertThat(Hudi1ActiveTimeline.load(storage, hoodieTable).instants())
          .extracting(i -> i.completionTime().orElseThrow())
          .containsExactly("20240102030405678");
    }
  }

  @Test
  void aHudi0TableIsNotReadAsOne() throws IOException {
    HoodieTable hoodieTable = write("hoodie.table.name=t\nhoodie.table.version=6\n");
    try (MetaStorage storage = storage()) {
      assertThatThrownBy(() -> Hudi1ActiveTimeline.load(storage, hoodieTable))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a Hudi 1.x table");
    }
  }
}
