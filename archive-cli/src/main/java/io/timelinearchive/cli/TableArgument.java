package io.timelinearchive.cli;

import io.timelinearchive.storage.StorageLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A {@code TABLE_URI} as the user typed it, made into what the library takes: a relative local path
 * is made absolute (the library accepts only absolute ones), and a location that is clearly not a
 * table folder (a file, or the table's {@code .hoodie/} or {@code .hoodie/archived/} folder) is
 * refused as bad input naming the folder to give instead.
 */
final class TableArgument {
  private static final Pattern SCHEME = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*:/.*");
  private static final String META = ".hoodie";

  private TableArgument() {}

  /** A location given where a table folder belongs; exit 3. */
  static final class NotATableFolderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotATableFolderException(String message) {
      super(message);
    }
  }

  /**
   * {@code written}, absolute.
   *
   * @throws NotATableFolderException when it names a file or a table's metadata folder
   */
  static String resolve(String written) {
    String text = written.strip();
    if (!text.startsWith("/") && !SCHEME.matcher(text).matches() && !text.isEmpty()) {
      text = Path.of(text).toAbsolutePath().normalize().toString();
    }
    StorageLocation location;
    try {
      location = StorageLocation.of(text);
    } catch (IllegalArgumentException e) {
      return text; // the library names what is wrong with it
    }
    StorageLocation table = tableAbove(location);
    if (table != null) {
      throw new NotATableFolderException(
          location
              + " is inside the table's "
              + META
              + "/ folder: give the table folder, "
              + table);
    }
    if (location.scheme().equals("file") && Files.isRegularFile(Path.of("/" + location.path()))) {
      throw new NotATableFolderException(
          location + " is a file, not a table folder: give the folder that holds " + META + "/");
    }
    return text;
  }

  /**
   * The table whose {@code .hoodie/} or {@code .hoodie/archived/} (or a file in them) {@code
   * location} is, or null. {@code .hoodie/metadata} is a table of its own and passes.
   */
  private static StorageLocation tableAbove(StorageLocation location) {
    StorageLocation l = location;
    for (int up = 0; up < 3 && !l.path().isEmpty(); up++, l = l.parent()) {
      if (l.fileName().equals(META)) {
        StorageLocation below = up == 0 ? null : child(location, up - 1);
        boolean metadataTable = below != null && below.fileName().equals("metadata");
        return metadataTable ? null : l.parent();
      }
    }
    return null;
  }

  /** The ancestor of {@code location} {@code up} levels above it. */
  private static StorageLocation child(StorageLocation location, int up) {
    StorageLocation l = location;
    for (int i = 0; i < up; i++) {
      l = l.parent();
    }
    return l;
  }
}
