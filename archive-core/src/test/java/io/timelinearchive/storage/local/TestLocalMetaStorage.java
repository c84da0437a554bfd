package io.timelinearchive.storage.local;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.AbstractMetaStorageContractTest;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.DeleteFailedException;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestLocalMetaStorage extends AbstractMetaStorageContractTest {
  @TempDir Path dir;
  private MetaStorage storage;

  @BeforeEach
  void openStorage() throws IOException {
    // through the registry, as the archiver opens it
    storage = MetaStorages.open(StorageLocation.of(dir.toString()), Map.of());
  }

  @Override
  protected MetaStorage storage() {
    return storage;
  }

  @Override
  protected StorageLocation newRootFolder() {
    return location(dir.resolve("root"));
  }

  @Override
  protected boolean hasAppend() {
    return true;
  }

  static StorageLocation location(Path path) {
    return StorageLocation.of(path.toString());
  }

  /** Every entry below {@code dir}, hidden files and folders too, relative and sorted. */
  static List<String> everything(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths
          .filter(p -> !p.equals(dir))
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  @Test
  void testNoTemporaryFilesRemain() throws Exception {
    StorageLocation file = location(dir.resolve("a/file"));
    storage.createExclusive(file, new byte[] {1});
    assertThatThrownBy(() -> storage.createExclusive(file, new byte[] {2}))
        .isInstanceOf(FileAlreadyExistsException.class);

    assertThat(everything(dir)).containsExactly("a", "a/file");
  }

  @Test
  void testLongestFileName() throws Exception {
    // the temporary name does not grow with the target name, so a 255-byte name works
    String name = "x".repeat(255);
    StorageLocation file = location(dir).resolve(name);

    storage.createExclusive(file, new byte[] {1});

    assertThat(storage.read(file)).containsExactly(1);
    assertThat(everything(dir)).containsExactly(name);
  }

  @Test
  void testCreateExclusiveBelowAFile() throws Exception {
    StorageLocation file = location(dir.resolve("plain"));
    storage.createExclusive(file, new byte[] {1});

    // a file stands where the folder should be: an error, but not "already exists"
    assertThatThrownBy(() -> storage.createExclusive(file.resolve("child"), new byte[] {2}))
        .isInstanceOf(NotDirectoryException.class)
        .isNotInstanceOf(FileAlreadyExistsException.class);
    assertThat(everything(dir)).containsExactly("plain");
  }

  @Test
  void testListSkipsFoldersAndListsAFileAsEmpty() throws Exception {
    Files.createDirectories(dir.resolve("f/sub"));
    Files.write(dir.resolve("f/x"), new byte[3]);

    assertThat(listNames(location(dir.resolve("f")))).containsExactly("x");
    assertThat(storage.list(location(dir.resolve("f/x"))).hasNext()).isFalse();
  }

  @Test
  void testReadFolderIsNotMissingFile() throws Exception {
    Files.createDirectories(dir.resolve("folder"));

    assertThatThrownBy(() -> storage.read(location(dir.resolve("folder"))))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(NoSuchFileException.class);
  }

  @Test
  void testAppendRefusesAfterAnotherWriterGrewTheFile() throws Exception {
    StorageLocation file = location(dir.resolve("log"));
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(new byte[] {1, 2});
      // a writer that does not go through this storage (another tool)
      Files.write(dir.resolve("log"), new byte[] {9}, StandardOpenOption.APPEND);

      assertThatThrownBy(() -> log.append(new byte[] {3}))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("concurrent append")
          .hasMessageContaining("2 bytes")
          .hasMessageContaining("has 3");
    }
    assertThat(Files.readAllBytes(dir.resolve("log"))).containsExactly(1, 2, 9);
  }

  @Test
  void testAppendRefusesAfterTheFileShrank() throws Exception {
    StorageLocation file = location(dir.resolve("log"));
    try (AppendableLog log = storage.openLog(file).orElseThrow()) {
      log.append(new byte[] {1, 2});
      Files.write(dir.resolve("log"), new byte[] {7});

      assertThatThrownBy(() -> log.append(new byte[] {3})).isInstanceOf(IOException.class);
    }
    assertThat(Files.readAllBytes(dir.resolve("log"))).containsExactly(7);
  }

  @Test
  void testOpenLogRefusesAFileWithAHadoopChecksum() throws Exception {
    // as Hudi leaves its archive files on a local disk, through Hadoop's LocalFileSystem
    Files.write(dir.resolve(".commits_.archive.2_1-0-1"), new byte[] {1, 2});
    Files.write(dir.resolve("..commits_.archive.2_1-0-1.crc"), new byte[] {9});
    StorageLocation file = location(dir.resolve(".commits_.archive.2_1-0-1"));

    assertThatThrownBy(() -> storage.openLog(file))
        .isInstanceOf(FileSystemException.class)
        .hasMessageContaining("..commits_.archive.2_1-0-1.crc")
        .hasMessageContaining("checksum");
    assertThat(Files.readAllBytes(dir.resolve(".commits_.archive.2_1-0-1"))).containsExactly(1, 2);
  }

  @Test
  void testDeleteAllDeletesHadoopChecksumsOfTheFilesOnly() throws Exception {
    // as Hudi leaves its instant files on a local disk, through Hadoop's LocalFileSystem
    Files.write(dir.resolve("1.commit"), new byte[] {1});
    Files.write(dir.resolve(".1.commit.crc"), new byte[] {9});
    Files.write(dir.resolve("2.commit"), new byte[] {2});
    Files.write(dir.resolve(".3.commit.crc"), new byte[] {9});
    Files.write(dir.resolve(".4.commit.crc"), new byte[] {9});

    storage.deleteAll(
        List.of(
            location(dir.resolve("1.commit")),
            location(dir.resolve("2.commit")),
            // gone already, its checksum left behind by an earlier run
            location(dir.resolve("4.commit"))));

    assertThat(everything(dir)).containsExactly(".3.commit.crc");
  }

  @Test
  void testDeleteAllReportsEveryFailure() throws Exception {
    Files.createDirectories(dir.resolve("full/sub"));
    Files.createDirectories(dir.resolve("full2/sub"));
    Files.write(dir.resolve("ok"), new byte[] {1});
    StorageLocation full = location(dir.resolve("full"));
    StorageLocation full2 = location(dir.resolve("full2"));

    // a non-empty folder cannot be deleted as a file
    assertThatThrownBy(() -> storage.deleteAll(List.of(full, location(dir.resolve("ok")), full2)))
        .isInstanceOfSatisfying(
            DeleteFailedException.class,
            e -> assertThat(e.failures()).containsOnlyKeys(full, full2))
        .hasMessageContaining("failed to delete 2 file(s)");
    assertThat(everything(dir)).containsExactly("full", "full/sub", "full2", "full2/sub");
  }

  @Test
  void testNameTheFileSystemCannotHold() {
    StorageLocation file = location(dir).resolve("nul\0char");

    assertThatThrownBy(() -> storage.createExclusive(file, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot name");
  }

  @Test
  void testLocationWithAuthority() {
    StorageLocation file = StorageLocation.of("file://host/tmp/x");

    assertThatThrownBy(() -> storage.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no authority");
    assertThatThrownBy(() -> new LocalMetaStorageFactory().open(file, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("file:///path");
  }

  @Test
  void testFactoryServesFileScheme() throws Exception {
    assertThat(MetaStorages.factoryFor("file", getClass().getClassLoader()))
        .isInstanceOf(LocalMetaStorageFactory.class);
    assertThatThrownBy(
            () -> new LocalMetaStorageFactory().open(StorageLocation.of("memory://v/x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void testUnicodeNameOnDisk() throws Exception {
    StorageLocation file = location(dir).resolve("caf\u00e9");
    storage.createExclusive(file, new byte[] {1});

    // the name on disk is the UTF-8 of the location's name, not an escape of it
    assertThat(Files.readAllBytes(dir.resolve(new String("caf\u00e9".getBytes(UTF_8), UTF_8))))
        .containsExactly(1);
  }
}
