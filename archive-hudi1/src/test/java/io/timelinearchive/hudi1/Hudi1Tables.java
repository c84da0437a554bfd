package io.timelinearchive.hudi1;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Copies, snapshots and deletes the tables the tests of this module write. */
final class Hudi1Tables {
  private Hudi1Tables() {}

  /** Copies the table in {@code source} to {@code target}, keeping modification times. */
  static Path copy(Path source, Path target) throws IOException {
    try (Stream<Path> walk = Files.walk(source)) {
      for (Path p : walk.toList()) {
        Path to = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return target;
  }

  /**
   * Every folder and file under {@code dir} by relative path (folders end in {@code /}), each file
   * with its size, the SHA-256 of its bytes and its modification time.
   */
  static SortedMap<String, String> snapshot(Path dir) throws IOException {
    SortedMap<String, String> entries = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.toList()) {
        String name = dir.relativize(p).toString();
        if (Files.isDirectory(p)) {
          entries.put(name + "/", "");
        } else {
          entries.put(
              name,
              Files.size(p)
                  + " "
                  + sha256(Files.readAllBytes(p))
                  + " "
                  + Files.getLastModifiedTime(p).toMillis());
        }
      }
    }
    return entries;
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted((a, b) -> b.compareTo(a))
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
