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
  public static final String METADATA_FOLDER = "metadata";
  public static final String TABLE_VERSION = "hoodie.table.version";
  public static final String TIMELINE_LAYOUT_VERSION = "hoodie.timeline.layout.version";

  /** Hudi 1.x keeps its timeline in this sub-folder of {@code .hoodie/}; 0.x never does. */
  public static final String TIMELINE_FOLDER = "timeline";

  /** Table versions of Hudi 0.x (0.5 wrote none, which Hudi reads as 0; 0.14 and 0.15 write 6). */
  private static final int NEWEST_TABLE_VERSION = 6;

  /** Timeline layouts of Hudi 0.x: 0 (one file per state, 0.5) and 1 (0.7 on). */
  private static final int NEWEST_LAYOUT_VERSION = 1;

  /** Where in {@code .hoodie/} Hudi 1.x keeps its active timeline ({@code timeline} if absent). */
  public static final String TIMELINE_PATH_KEY = "hoodie.timeline.path";

  /** Where in the timeline folder Hudi 1.x keeps its LSM history ({@code history} if absent). */
  public static final String TIMELINE_HISTORY_PATH_KEY = "hoodie.timeline.history.path";

  public static final String DEFAULT_HISTORY_FOLDER = "history";

  public HoodieTable {
    requireNonNull(base, "base is null");
    properties = Map.copyOf(properties);
  }

  /**
   * Reads {@code <base>/.hoodie/hoodie.properties} and checks that the table is one of Hudi 0.x:
   * its table and timeline layout versions, and no Hudi 1.x timeline folder. What only Hudi 0.x
   * tables have (unarchive) goes through here; reading, planning and archiving go through {@link
   * #inspect} and the table's format. Nothing is written.
   *
   * @throws NoSuchFileException naming the properties file when {@code base} is not a Hudi table
   * @throws UnsupportedTableException naming the version when the table is not a Hudi 0.x table (a
   *     Hudi 1.x table among them)
   */
  public static HoodieTable load(MetaStorage storage, StorageLocation base) throws IOException {
    HoodieTable table = inspect(storage, base);
    if (table.format() != TimelineFormat.HUDI_0) {
      throw new UnsupportedTableException(
          base
              + " is a Hudi 1.x table ("
              + table.versions()
              + "): timeline-archive reads, plans and archives it, but this operation handles"
              + " Hudi 0.x tables only; nothing was changed");
    }
    return table;
  }

  /**
   * Reads {@code <base>/.hoodie/hoodie.properties} and tells which timeline format the table has:
   * Hudi 0.x's (table versions 0 to 6, layouts 0 and 1, no {@code .hoodie/timeline/}) or Hudi 1.x's
   * (table version 8 with timeline layout 2). For readers only: whatever changes a table goes
   * through {@link #load}. Nothing is written.
   *
   * @throws NoSuchFileException naming the properties file when {@code base} is not a Hudi table
   * @throws UnsupportedTableException naming the version when the table is of neither format, or
   *     claims Hudi 0.x while a Hudi 1.x timeline folder is there
   */
  public static HoodieTable inspect(MetaStorage storage, StorageLocation base) throws IOException {
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
    HoodieTable table = new HoodieTable(base, map);
    table.checkVersion(storage, file);
    return table;
  }

  private void checkVersion(MetaStorage storage, StorageLocation file) throws IOException {
    int tableVersion = version(file, TABLE_VERSION);
    int layoutVersion = version(file, TIMELINE_LAYOUT_VERSION);
    if (TimelineFormat.of(tableVersion, layoutVersion) == TimelineFormat.HUDI_1_LSM) {
      // Hudi 1.x keeps every instant in the timeline folder: instants in .hoodie/ itself and none
      // there mean properties edited to claim a version the files are not in. .hoodie/ is listed
      // first: on a 1.x table a few entries, where the timeline folder can hold thousands.
      if (!ActiveTimeline.load(storage, metaFolder()).files().isEmpty()
          && !storage.list(timelineFolder()).hasNext()) {
        throw unsupported(
            versions()
                + " (Hudi 1.x), but its instants are in "
                + metaFolder()
                + ", where Hudi 0.x keeps them, and "
                + timelineFolder()
                + " holds none");
      }
      return;
    }
    if (tableVersion > NEWEST_TABLE_VERSION || layoutVersion > NEWEST_LAYOUT_VERSION) {
      throw unsupported(
          versions() + (tableVersion >= TimelineFormat.HUDI_1_TABLE_VERSION ? " (Hudi 1.x)" : ""));
    }
    if (storage.list(metaFolder().resolve(TIMELINE_FOLDER)).hasNext()) {
      throw unsupported(
          metaFolder().resolve(TIMELINE_FOLDER) + " exists: Hudi 1.x keeps its timeline there");
    }
  }

  /**
   * The table's timeline format, from its versions (checked when the table was loaded).
   *
   * @return {@link TimelineFormat#HUDI_1_LSM} for table version 8 with timeline layout 2, else
   *     {@link TimelineFormat#HUDI_0}
   */
  public TimelineFormat format() {
    return TimelineFormat.of(
        versionOrZero(properties.get(TABLE_VERSION)),
        versionOrZero(properties.get(TIMELINE_LAYOUT_VERSION)));
  }

  private static int versionOrZero(String value) {
    try {
      return value == null ? 0 : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private String versions() {
    return TABLE_VERSION
        + "="
        + properties.getOrDefault(TABLE_VERSION, "0")
        + " and "
        + TIMELINE_LAYOUT_VERSION
        + "="
        + properties.getOrDefault(TIMELINE_LAYOUT_VERSION, "0");
  }

  /** A version property, absent meaning 0 as Hudi reads it. */
  private int version(StorageLocation file, String key) throws InvalidTableFileException {
    String value = properties.get(key);
    if (value == null) {
      return 0;
    }
    try {
      int version = Integer.parseInt(value.strip());
      if (version < 0) {
        throw new NumberFormatException();
      }
      return version;
    } catch (NumberFormatException e) {
      throw new InvalidTableFileException(file, key + "='" + value + "' is not a version", e);
    }
  }

  private UnsupportedTableException unsupported(String what) {
    return new UnsupportedTableException(
        base
            + " is not a table timeline-archive handles: "
            + what
            + "; it handles Hudi 0.x tables (table versions 0 to "
            + NEWEST_TABLE_VERSION
            + ", timeline layouts 0 and "
            + NEWEST_LAYOUT_VERSION
            + ") and Hudi 1.x tables (table version "
            + TimelineFormat.HUDI_1_TABLE_VERSION
            + ", timeline layout "
            + TimelineFormat.HUDI_1_LAYOUT_VERSION
            + "); nothing was changed");
  }

  public StorageLocation metaFolder() {
    return base.resolve(META_FOLDER);
  }

  /**
   * The archive folder: {@code .hoodie/<hoodie.archivelog.folder>}; {@code .hoodie/archived} when
   * the key is absent (Hudi 0.15's default); {@code .hoodie/} itself when the key is there but
   * empty, as Hudi 0.5.x writes it into every table it creates ({@code hoodie.archivelog.folder=})
   * and as Hudi 0.5 and 0.15 both read it: their archive files then sit beside the instant files.
   */
  public StorageLocation archiveFolder() {
    String folder = properties.get(ARCHIVE_FOLDER_KEY);
    if (folder == null) {
      folder = DEFAULT_ARCHIVE_FOLDER;
    } else if (folder.isBlank()) {
      return metaFolder();
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

  /** Whether this is a data table's metadata table, {@code <data table>/.hoodie/metadata}. */
  public boolean isMetadataTable() {
    return base.path().endsWith(META_FOLDER + "/" + METADATA_FOLDER);
  }

  /** The data table of this metadata table. */
  public StorageLocation dataTableBase() {
    if (!isMetadataTable()) {
      throw new IllegalStateException(base + " is not a metadata table");
    }
    String path = base.path();
    String data = path.substring(0, path.length() - (META_FOLDER + "/" + METADATA_FOLDER).length());
    return new StorageLocation(base.scheme(), base.authority(), data.replaceAll("/+$", ""));
  }

  /**
   * Hudi 1.x's active timeline folder: {@code .hoodie/<hoodie.timeline.path>}, {@code
   * .hoodie/timeline} when the key is absent.
   */
  public StorageLocation timelineFolder() {
    return resolveProperty(metaFolder(), TIMELINE_PATH_KEY, TIMELINE_FOLDER);
  }

  /**
   * Hudi 1.x's LSM history folder: {@code <timeline folder>/<hoodie.timeline.history.path>}, {@code
   * .hoodie/timeline/history} when the keys are absent.
   */
  public StorageLocation historyFolder() {
    return resolveProperty(timelineFolder(), TIMELINE_HISTORY_PATH_KEY, DEFAULT_HISTORY_FOLDER);
  }

  /**
   * The folder a property names below {@code parent}, {@code absent} when it is absent or blank.
   */
  private StorageLocation resolveProperty(StorageLocation parent, String key, String absent) {
    String folder = properties.get(key);
    if (folder == null || folder.isBlank()) {
      folder = absent;
    }
    try {
      return parent.resolve(folder);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid " + key + " '" + folder + "' in " + metaFolder().resolve(PROPERTIES_FILE), e);
    }
  }

  public StorageLocation auxFolder() {
    return metaFolder().resolve(AUX_FOLDER);
  }

  public String name() {
    return properties.getOrDefault("hoodie.table.name", base.fileName());
  }
}
