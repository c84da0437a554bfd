package io.timelinearchive.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of single tables for {@code archive-all} and {@code plan-all}, read from a file of
 * sections, one per table, each over the settings every table gets:
 *
 * <pre>
 * # comment
 * [orders]                       # a table's path below BASE_URI, or its whole URI
 * hoodie.keep.min.commits=50
 * hoodie.keep.max.commits=60
 * </pre>
 *
 * Sections rather than {@code TABLE.KEY=VALUE} lines, since table paths hold dots and colons. A
 * storage key ({@code s3.}, …) is refused: one storage, opened with {@code --conf}, serves every
 * table.
 */
final class TableSettings {
  private final Map<StorageLocation, Map<String, String>> byTable;

  private TableSettings(Map<StorageLocation, Map<String, String>> byTable) {
    this.byTable = byTable;
  }

  static TableSettings none() {
    return new TableSettings(Map.of());
  }

  /**
   * Reads {@code file} and checks each table's settings on top of {@code common}.
   *
   * @throws IllegalArgumentException naming the file and line of a line that is no section or
   *     setting, a setting before any section or given twice, a storage key, or a setting the
   *     archiver refuses
   */
  static TableSettings read(Path file, StorageLocation base, Map<String, String> common)
      throws IOException {
    requireNonNull(base, "base is null");
    List<String> storagePrefixes =
        MetaStorages.settingNamespaces(TableSettings.class.getClassLoader()).stream()
            .map(SettingNamespace::prefix)
            .toList();
    Map<StorageLocation, Map<String, String>> byTable = new LinkedHashMap<>();
    Map<String, String> section = null;
    StorageLocation table = null;
    List<String> lines = Files.readAllLines(file, UTF_8);
    for (int n = 1; n <= lines.size(); n++) {
      String line = lines.get(n - 1).strip();
      String where = "--table-conf " + file + " line " + n;
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[")) {
        if (!line.endsWith("]") || line.length() < 3) {
          throw new IllegalArgumentException(where + ": expected [TABLE], got '" + line + "'");
        }
        table = tableOf(line.substring(1, line.length() - 1).strip(), base, where);
        section = byTable.computeIfAbsent(table, t -> new LinkedHashMap<>());
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            where + ": expected [TABLE] or KEY=VALUE, got '" + line + "'");
      }
      if (section == null) {
        throw new IllegalArgumentException(where + ": a setting before any [TABLE] section");
      }
      String key = line.substring(0, eq).strip();
      for (String prefix : storagePrefixes) {
        if (key.startsWith(prefix)) {
          throw new IllegalArgumentException(
              where
                  + ": "
                  + key
                  + " is a storage setting; give it with --conf (one storage serves every table)");
        }
      }
      if (section.put(key, line.substring(eq + 1).strip()) != null) {
        throw new IllegalArgumentException(where + ": " + key + " set twice for " + table);
      }
    }
    for (Map.Entry<StorageLocation, Map<String, String>> entry : byTable.entrySet()) {
      try {
        TimelineArchiver.checkKeys(merged(common, entry.getValue()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--table-conf " + file + ", [" + entry.getKey() + "]: " + e.getMessage(), e);
      }
    }
    return new TableSettings(byTable);
  }

  /** The settings of {@code table}: its own over {@code common}. */
  Map<String, String> forTable(StorageLocation table, Map<String, String> common) {
    return merged(common, byTable.getOrDefault(table, Map.of()));
  }

  /** The tables named here that are not among {@code found}, in the order written. */
  List<StorageLocation> notFound(Collection<StorageLocation> found) {
    return byTable.keySet().stream().filter(t -> !found.contains(t)).toList();
  }

  private static Map<String, String> merged(Map<String, String> common, Map<String, String> own) {
    Map<String, String> config = new LinkedHashMap<>(common);
    config.putAll(own);
    return config;
  }

  private static StorageLocation tableOf(String name, StorageLocation base, String where) {
    try {
      return name.startsWith("/") || name.contains("://")
          ? StorageLocation.of(name)
          : base.resolve(name.endsWith("/") ? name.substring(0, name.length() - 1) : name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }
}
