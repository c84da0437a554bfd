package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A Hudi table's folders and the properties of {@code .hoodie/hoodie.properties}.
 *
 * @param base the table's base path
 * @param properties every property of {@code hoodie.properties}
 */
public record HoodieTable(StorageLocation base, Map<String, String> properties) {
  public static final String META_FOLDER = ".hoodie";
  public static final String PROPERTIES_FILE = "hoodie.properties";
  public static final String ARCHIVE_FOLDER_KEY = "hoodie.archivelog.folder";
  public static final String DEFAULT_ARCHIVE_FOLDER = "archived";
  public static final String AUX_FOLDER = ".aux";

  public HoodieTable {
    requireNonNull(base, "base is null");
    properties = Map.copyOf(properties);
  }

  /**
   * Reads {@code <base>/.hoodie/hoodie.properties}.
   *
   * @throws NoSuchFileException naming the properties file when {@code base} is not a Hudi table
   */
  public static HoodieTable load(MetaStorage storage, StorageLocation base) throws IOException {
    StorageLocation file = base.resolve(META_FOLDER).resolve(PROPERTIES_FILE);
    byte[] bytes;
    try {
      bytes = storage.read(file);
    } catch (NoSuchFileException e) {
      NoSuchFileException missing =
          new NoSuchFileException(
              file.toString(), null, "not a Hudi table: " + file + " does not exist");
      missing.initCause(e);
      throw missing;
    }
    Properties properties = new Properties();
    try {
      properties.load(new ByteArrayInputStream(bytes));
    } catch (IllegalArgumentException e) {
      throw new InvalidTableFileException(file, e.getMessage(), e);
    }
    Map<String, String> map = new TreeMap<>();
    properties.forEach((k, v) -> map.put(k.toString(), v.toString()));
    return new HoodieTable(base, map);
  }

  public StorageLocation metaFolder() {
    return base.resolve(META_FOLDER);
  }

  /** The archive folder, {@code .hoodie/archived} unless {@code hoodie.archivelog.folder} says. */
  public StorageLocation archiveFolder() {
    String folder = properties.getOrDefault(ARCHIVE_FOLDER_KEY, "");
    if (folder.isBlank()) {
      folder = DEFAULT_ARCHIVE_FOLDER;
    }
    try {
      return metaFolder().resolve(folder);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid "
              + ARCHIVE_FOLDER_KEY
              + " '"
              + folder
              + "' in "
              + metaFolder().resolve(PROPERTIES_FILE),
          e);
    }
  }

  public StorageLocation auxFolder() {
    return metaFolder().resolve(AUX_FOLDER);
  }

  public String name() {
    return properties.getOrDefault("hoodie.table.name", base.fileName());
  }
}
