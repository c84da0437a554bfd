package io.timelinearchive.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.OptionalInt;

/**
 * {@code _version_} in the history folder: the number N of the current manifest, {@code
 * manifest_N}, as decimal digits in UTF-8 and nothing else. Hudi replaces it by deleting it and
 * creating it anew, so for a moment it is missing (and on HDFS, empty while being written); a
 * reader then takes the highest manifest instead.
 */
public final class LsmVersionFile {
  public static final String NAME = "_version_";

  private LsmVersionFile() {}

  public static StorageLocation location(StorageLocation historyFolder) {
    return historyFolder.resolve(NAME);
  }

  /**
   * The manifest version {@code _version_} names.
   *
   * @return the version, or empty if the file is missing or empty
   * @throws CorruptHistoryFileException naming the file if it holds anything but a version number
   * @throws IOException if the storage fails
   */
  public static OptionalInt read(MetaStorage storage, StorageLocation historyFolder)
      throws IOException {
    StorageLocation file = location(historyFolder);
    byte[] bytes;
    try {
      bytes = storage.read(file);
    } catch (NoSuchFileException e) {
      return OptionalInt.empty();
    }
    if (bytes.length == 0) {
      return OptionalInt.empty();
    }
    String text = new String(bytes, UTF_8);
    if (text.length() > 9 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new CorruptHistoryFileException(
          file,
          "not a manifest version: "
              + bytes.length
              + " byte(s) "
              + quote(text)
              + " where Hudi writes the decimal number of the current manifest_N");
    }
    return OptionalInt.of(Integer.parseInt(text));
  }

  private static String quote(String text) {
    String shown = text.length() > 40 ? text.substring(0, 40) + "…" : text;
    StringBuilder b = new StringBuilder("'");
    for (char c : shown.toCharArray()) {
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append("'").toString();
  }
}
