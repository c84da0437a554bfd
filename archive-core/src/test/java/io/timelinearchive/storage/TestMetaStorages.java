package io.timelinearchive.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.storage.local.LocalMetaStorageFactory;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestMetaStorages {
  private final ClassLoader loader = getClass().getClassLoader();

  @Test
  void testBuiltInSchemes() {
    assertThat(MetaStorages.discover(loader)).containsOnlyKeys("file", "memory");
    assertThat(MetaStorages.factoryFor("memory", loader))
        .isInstanceOf(InMemoryMetaStorageFactory.class);
    assertThat(MetaStorages.factoryFor("FILE", loader)).isInstanceOf(LocalMetaStorageFactory.class);
  }

  @Test
  void testOpen() throws IOException {
    StorageLocation file = StorageLocation.of("memory://test-meta-storages/f");
    try (MetaStorage storage = MetaStorages.open(file, Map.of())) {
      storage.createExclusive(file, new byte[] {1});
      assertThat(storage.read(file)).containsExactly(1);
    } finally {
      InMemoryMetaStorageFactory.dropVolume("test-meta-storages");
    }
  }

  @Test
  void testUnknownSchemeNamesKnownSchemesAndTheModule() {
    assertThatThrownBy(() -> MetaStorages.factoryFor("s3a", loader))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no storage for scheme 's3a'")
        .hasMessageContaining("known schemes: file;")
        .hasMessageContaining("add the module io.timelinearchive:storage-s3 to the classpath");
    assertThatThrownBy(() -> MetaStorages.factoryFor("ABFSS", loader))
        .hasMessageContaining("io.timelinearchive:storage-azure");
    assertThatThrownBy(() -> MetaStorages.open(StorageLocation.of("gs://b/t"), Map.of()))
        .hasMessageContaining("io.timelinearchive:storage-gcs");
    assertThatThrownBy(() -> MetaStorages.open(StorageLocation.of("viewfs://c/t"), Map.of()))
        .hasMessageContaining("io.timelinearchive:storage-hdfs");
  }

  @Test
  void testUnknownSchemeWithoutAModule() {
    assertThatThrownBy(() -> MetaStorages.factoryFor("ftp", loader))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no storage for scheme 'ftp'; known schemes: file");
  }

  @Test
  void testTwoFactoriesForOneSchemeFailNamingBoth(@TempDir Path dir) throws IOException {
    try (URLClassLoader withClash = loaderWithServices(dir, ClashingFileFactory.class)) {
      assertThatThrownBy(() -> MetaStorages.discover(withClash))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("scheme 'file'")
          .hasMessageContaining(LocalMetaStorageFactory.class.getName())
          .hasMessageContaining(ClashingFileFactory.class.getName());
      assertThatThrownBy(() -> MetaStorages.factoryFor("memory", withClash))
          .hasMessageContaining(ClashingFileFactory.class.getName());
    }
  }

  @Test
  void testAnotherFactoryAddsItsSchemes(@TempDir Path dir) throws IOException {
    try (URLClassLoader withExtra = loaderWithServices(dir, ExtraFactory.class)) {
      assertThat(MetaStorages.discover(withExtra)).containsOnlyKeys("file", "memory", "extra");
      assertThat(MetaStorages.factoryFor("extra", withExtra)).isInstanceOf(ExtraFactory.class);
    }
  }

  /** A class loader that also sees a services file naming {@code factory}, as a jar would add. */
  private URLClassLoader loaderWithServices(Path dir, Class<?> factory) throws IOException {
    Path services = dir.resolve("META-INF/services/" + MetaStorageFactory.class.getName());
    Files.createDirectories(services.getParent());
    Files.writeString(services, factory.getName() + "\n", UTF_8);
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, loader);
  }

  public static final class ClashingFileFactory implements MetaStorageFactory {
    @Override
    public Set<String> schemes() {
      return Set.of("file");
    }

    @Override
    public MetaStorage open(StorageLocation root, Map<String, String> config) {
      throw new UnsupportedOperationException();
    }
  }

  public static final class ExtraFactory implements MetaStorageFactory {
    @Override
    public Set<String> schemes() {
      return Set.of("extra");
    }

    @Override
    public MetaStorage open(StorageLocation root, Map<String, String> config) {
      throw new UnsupportedOperationException();
    }
  }
}
