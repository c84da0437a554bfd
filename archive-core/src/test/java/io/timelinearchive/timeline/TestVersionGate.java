package io.timelinearchive.timeline;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.TestTables;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.restore.TimelineRestorer;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Hudi 0.x tables proceed; any other version or layout is refused before anything is written. */
class TestVersionGate {
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage memory = TestTables.memory(base);
  private final StorageLocation meta = base.resolve(".hoodie");

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  @ParameterizedTest
  @CsvSource({"'', ''", "0, 0", "1, 1", "3, 1", "5, 1", "6, 1", "6, 0"})
  void hudi0xTablesProceed(String tableVersion, String layoutVersion) throws Exception {
    writeProperties(tableVersion, layoutVersion);
    assertThat(HoodieTable.load(memory, base).name()).isEqualTo("t");
  }

  @ParameterizedTest
  @CsvSource({
    "8, 2, is a Hudi 1.x table (hoodie.table.version=8 and hoodie.timeline.layout.version=2)",
    "7, 1, hoodie.table.version=7 and hoodie.timeline.layout.version=1",
    "6, 2, hoodie.table.version=6 and hoodie.timeline.layout.version=2",
    "99, 1, hoodie.table.version=99"
  })
  void otherVersionsAreRefusedNamingTheVersion(
      String tableVersion, String layoutVersion, String named) throws Exception {
    writeProperties(tableVersion, layoutVersion);
    assertThatThrownBy(() -> HoodieTable.load(memory, base))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessageContaining(named)
        .hasMessageContaining("nothing was changed");
  }

  @Test
  void aHudi1TableIsInspectedForItsFormatButNotLoadedForWhatOnlyHudi0xHas() throws Exception {
    writeProperties("8", "2");
    HoodieTable table = HoodieTable.inspect(memory, base);

    assertThat(table.format()).isEqualTo(TimelineFormat.HUDI_1_LSM);
    assertThat(table.timelineFolder()).isEqualTo(meta.resolve("timeline"));
    assertThat(table.historyFolder()).isEqualTo(meta.resolve("timeline").resolve("history"));
    assertThatThrownBy(() -> HoodieTable.load(memory, base))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessageContaining(
            "reads, plans and archives it, but this operation handles Hudi 0.x tables only")
        .hasMessageContaining("nothing was changed");
  }

  @Test
  void hudi1FoldersFollowTheirProperties() throws Exception {
    memory.createExclusive(
        meta.resolve("hoodie.properties"),
        ("hoodie.table.name=t\nhoodie.table.version=8\nhoodie.timeline.layout.version=2\n"
                + "hoodie.timeline.path=tl\nhoodie.timeline.history.path=past\n")
            .getBytes(UTF_8));
    HoodieTable table = HoodieTable.inspect(memory, base);
    assertThat(table.timelineFolder()).isEqualTo(meta.resolve("tl"));
    assertThat(table.historyFolder()).isEqualTo(meta.resolve("tl").resolve("past"));
  }

  @ParameterizedTest
  @CsvSource({"7, 1", "8, 1", "9, 2", "6, 2"})
  void inspectingRefusesWhatIsNeitherFormat(String tableVersion, String layoutVersion)
      throws Exception {
    writeProperties(tableVersion, layoutVersion);
    assertThatThrownBy(() -> HoodieTable.inspect(memory, base))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessageContaining("hoodie.table.version=" + tableVersion)
        .hasMessageContaining("nothing was changed");
  }

  @Test
  void aHudi1TimelineFolderIsRefusedWhateverThePropertiesSay() throws Exception {
    writeProperties("6", "1");
    memory.createExclusive(
        meta.resolve("timeline").resolve("20260101000000000.commit"), new byte[0]);
    assertThatThrownBy(() -> HoodieTable.load(memory, base))
        .isInstanceOf(UnsupportedTableException.class)
        .hasMessageContaining(".hoodie/timeline exists");
  }

  @Test
  void aVersionThatIsNotANumberIsAnUnreadableFile() throws Exception {
    writeProperties("six", "1");
    assertThatThrownBy(() -> HoodieTable.load(memory, base))
        .isInstanceOf(InvalidTableFileException.class)
        .hasMessageContaining("hoodie.table.version='six' is not a version");
  }

  @Test
  void noCommandWritesAnythingOnARefusedTable() throws Exception {
    writeProperties("8", "2");
    memory.createExclusive(meta.resolve("20260101000000000.commit"), new byte[0]);
    List<String> before = names(meta);
    try (TimelineArchiver archiver =
        TimelineArchiver.create(memory, base, Map.of(), Clock.systemUTC(), ArchiveListener.NONE)) {
      assertThatThrownBy(archiver::archiveIfRequired).isInstanceOf(UnsupportedTableException.class);
      assertThatThrownBy(archiver::plan).isInstanceOf(UnsupportedTableException.class);
    }
    try (TimelineRestorer restorer =
        TimelineRestorer.create(memory, base, Map.of(), Clock.systemUTC())) {
      assertThatThrownBy(() -> restorer.restore("0", "9", true, false))
          .isInstanceOf(UnsupportedTableException.class);
    }
    assertThat(names(meta)).isEqualTo(before);
    assertThat(names(meta.resolve("archived"))).isEmpty();
  }

  private void writeProperties(String tableVersion, String layoutVersion) throws Exception {
    String properties =
        "hoodie.table.name=t\n"
            + (tableVersion.isEmpty() ? "" : "hoodie.table.version=" + tableVersion + "\n")
            + (layoutVersion.isEmpty()
                ? ""
                : "hoodie.timeline.layout.version=" + layoutVersion + "\n");
    memory.createExclusive(meta.resolve("hoodie.properties"), properties.getBytes(UTF_8));
  }

  private List<String> names(StorageLocation folder) throws Exception {
    return memory.list(folder).toList().stream().map(FileEntry::name).toList();
  }
}
