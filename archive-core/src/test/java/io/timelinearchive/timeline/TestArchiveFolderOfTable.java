package io.timelinearchive.timeline;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.TestTables;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where the archive is, by {@code hoodie.archivelog.folder} as Hudi 0.5 and 0.15 read it: Hudi
 * 0.5.x writes the key empty into every table it creates, and both versions then archive into
 * {@code .hoodie/} itself.
 */
class TestArchiveFolderOfTable {
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage memory = TestTables.memory(base);

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @CsvSource({
    "'absent', .hoodie/archived",
    "'hoodie.archivelog.folder=archived', .hoodie/archived",
    "'hoodie.archivelog.folder=history', .hoodie/history",
    "'hoodie.archivelog.folder=', .hoodie",
    "'hoodie.archivelog.folder=   ', .hoodie"
  })
  void theArchiveFolderIsTheOneHudiReads(String line, String folder) throws Exception {
    String properties = "hoodie.table.name=t\n" + (line.equals("absent") ? "" : line + "\n");
    memory.createExclusive(
        base.resolve(".hoodie").resolve("hoodie.properties"), properties.getBytes(UTF_8));

    assertThat(HoodieTable.load(memory, base).archiveFolder()).isEqualTo(resolve(folder));
  }

  private StorageLocation resolve(String relative) {
    StorageLocation location = base;
    for (String part : relative.split("/")) {
      location = location.resolve(part);
    }
    return location;
  }
}
