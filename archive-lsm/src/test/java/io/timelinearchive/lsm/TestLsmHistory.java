package io.timelinearchive.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The LSM history read through the storage SPI, and each way its files can be bad. */
class TestLsmHistory {
  @TempDir Path tmp;

  private HistoryFolder history;
  private MetaStorage storage;
  private StorageLocation folder;

  @BeforeEach
  void open() throws IOException {
    history = new HistoryFolder(tmp.resolve("history"));
    folder = StorageLocation.of(history.folder().toUri().toString());
    storage = MetaStorages.open(folder, Map.of());
  }

  @AfterEach
  void close() throws IOException {
    storage.close();
  }

  /** Two layer-0 files, compacted into one of layer 1, then a third layer-0 file: snapshot 3. */
  private void writeHistory() throws IOException {
    String a =
        history.writeFile(
            0,
            List.of(
                HistoryFolder.Row.of("101", "102", "commit"),
                HistoryFolder.Row.of("103", "104", "clean")));
    String b =
        history.writeFile(
            0,
            List.of(
                HistoryFolder.Row.of("105", "106", "commit"),
                new HistoryFolder.Row(
                    "107", "108", "replacecommit", null, "plan".getBytes(UTF_8))));
    history.writeManifest(1, List.of(a));
    history.writeManifest(2, List.of(a, b));
    String compacted =
        history.writeFile(
            1,
            List.of(
                HistoryFolder.Row.of("101", "102", "commit"),
                HistoryFolder.Row.of("103", "104", "clean"),
                HistoryFolder.Row.of("105", "106", "commit"),
                new HistoryFolder.Row(
                    "107", "108", "replacecommit", null, "plan".getBytes(UTF_8))));
    String c = history.writeFile(0, List.of(HistoryFolder.Row.of("109", "110", "deltacommit")));
    history.writeManifest(3, List.of(compacted, c));
    history.writeVersion("3");
  }

  @Test
  void theCurrentSnapshotIsReadWithItsRowsSorted() throws IOException {
    writeHistory();
    LsmHistory loaded = LsmHistory.load(storage, folder, ArchiveReadOptions.all());

    assertThat(loaded.snapshot().version()).hasValue(3);
    assertThat(loaded.snapshot().fromVersionFile()).isTrue();
    assertThat(loaded.timeline())
        .extracting(Hudi1InstantFileName::of)
        .containsExactly(
            "101_102.commit",
            "103_104.clean",
            "105_106.commit",
            "107_108.replacecommit",
            "109_110.deltacommit");
    assertThat(loaded.instants().get(0).metadataBytes())
        .hasValueSatisfying(b -> assertThat(new String(b, UTF_8)).isEqualTo("101 metadata"));
    assertThat(loaded.instants().get(3).metadata()).isEmpty();
    assertThat(loaded.instants().get(3).planBytes())
        .hasValueSatisfying(b -> assertThat(new String(b, UTF_8)).isEqualTo("plan"));
    assertThat(loaded.files()).extracting(f -> f.name().layer()).containsExactly(1, 0);
  }

  @Test
  void withoutDetailsNeitherMetadataNorPlanIsRead() throws IOException {
    writeHistory();
    LsmHistory loaded = LsmHistory.load(storage, folder, ArchiveReadOptions.metadataOnly());
    assertThat(loaded.instants()).hasSize(5);
    assertThat(loaded.instants()).allSatisfy(r -> assertThat(r.metadata()).isEmpty());
    assertThat(loaded.instants()).allSatisfy(r -> assertThat(r.plan()).isEmpty());
  }

  @Test
  void aRangeSkipsFilesOutsideItAndRowsOutsideIt() throws IOException {
    writeHistory();
    LsmHistory loaded =
        LsmHistory.load(storage, folder, ArchiveReadOptions.metadataOnly().between("109", "200"));
    assertThat(loaded.timeline()).extracting(Hudi1Instant::requestedTime).containsExactly("109");
    assertThat(loaded.files()).extracting(f -> f.name().layer()).containsExactly(0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "missing"})
  void withoutAVersionFileTheHighestManifestIsRead(String versionFile) throws IOException {
    writeHistory();
    if (versionFile.isEmpty()) {
      history.writeVersion("");
    } else {
      Files.delete(history.folder().resolve("_version_"));
    }
    LsmHistory loaded = LsmHistory.load(storage, folder, ArchiveReadOptions.metadataOnly());
    assertThat(loaded.snapshot().version()).hasValue(3);
    assertThat(loaded.snapshot().fromVersionFile()).isFalse();
    assertThat(loaded.instants()).hasSize(5);
  }

  @Test
  void anEmptyFolderIsAnEmptyHistory() throws IOException {
    LsmHistory loaded = LsmHistory.load(storage, folder.resolve("none"), ArchiveReadOptions.all());
    assertThat(loaded.instants()).isEmpty();
    assertThat(loaded.snapshot().manifest()).isEmpty();
  }

  @Test
  void theVersionFileNamesAnOlderSnapshotItIsRead() throws IOException {
    writeHistory();
    history.writeVersion("2");
    LsmHistory loaded = LsmHistory.load(storage, folder, ArchiveReadOptions.metadataOnly());
    assertThat(loaded.timeline())
        .extracting(Hudi1Instant::requestedTime)
        .containsExactly("101", "103", "105", "107");
  }

  @ParameterizedTest
  @ValueSource(strings = {"three", "3\n", "-3", "12345678901", "3 "})
  void aGarbledVersionFileIsAnErrorNamingIt(String content) throws IOException {
    writeHistory();
    history.writeVersion(content);
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve("_version_").toString())
        .hasMessageContaining("not a manifest version");
  }

  @Test
  void aVersionFileNamingAMissingManifestIsAnErrorNamingBoth() throws IOException {
    writeHistory();
    history.writeVersion("7");
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve("_version_").toString())
        .hasMessageContaining(folder.resolve("manifest_7") + " does not exist");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "{\"files\" : [ {\"fileName\" : \"101_104_0.parquet\"",
        "[]",
        "{\"file\": []}",
        "{\"files\": [{\"fileLen\": 10}]}",
        "{\"files\": [{\"fileName\": \"101_104_0.parquet\", \"fileLen\": \"ten\"}]}",
        "{\"files\": [{\"fileName\": \"notes.txt\", \"fileLen\": 10}]}"
      })
  void aCorruptManifestIsAnErrorNamingIt(String content) throws IOException {
    writeHistory();
    Files.writeString(history.folder().resolve("manifest_3"), content);
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageStartingWith("cannot read " + folder.resolve("manifest_3") + ": ");
  }

  @Test
  void aFileTheManifestListsButIsMissingIsAnErrorNamingItAndTheManifest() throws IOException {
    writeHistory();
    Files.delete(history.folder().resolve("109_109_0.parquet"));
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve("109_109_0.parquet").toString())
        .hasMessageContaining("listed by " + folder.resolve("manifest_3"))
        .hasMessageContaining("does not exist");
  }

  @Test
  void aFileThatIsNotParquetIsAnErrorNamingIt() throws IOException {
    writeHistory();
    Files.writeString(history.folder().resolve("109_109_0.parquet"), "not parquet at all");
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve("109_109_0.parquet").toString())
        .hasMessageContaining("not a Parquet file of Hudi 1.x timeline instants");
  }

  @Test
  void aTruncatedFileIsAnErrorNamingIt() throws IOException {
    writeHistory();
    Path file = history.folder().resolve("109_109_0.parquet");
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve("109_109_0.parquet").toString());
  }

  @Test
  void aParquetFileWithoutTheInstantColumnsIsAnErrorNamingIt() throws IOException {
    writeHistory();
    HistoryFolder.writeParquet(
        history.folder().resolve("109_109_0.parquet"),
        MessageTypeParser.parseMessageType(
            "message other { optional binary instantTime (STRING); optional binary action (STRING); }"),
        List.of(HistoryFolder.Row.of("109", "110", "deltacommit")),
        CompressionCodecName.SNAPPY);
    assertThatThrownBy(() -> LsmHistory.load(storage, folder, ArchiveReadOptions.all()))
        .isInstanceOf(CorruptHistoryFileException.class)
        .hasMessageContaining(folder.resolve("109_109_0.parquet").toString())
        .hasMessageContaining("no column 'completionTime'");
  }
}
