package io.timelinearchive.reliability;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Local sample tables, their copies, and the independent check of invariants 1–3 on them. */
final class Tables {
  private Tables() {}

  static StorageLocation location(Path base) {
    return StorageLocation.of("file://" + base.toAbsolutePath());
  }

  static MetaStorage open(Path base) throws IOException {
    return MetaStorages.open(location(base), Map.of());
  }

  /** Writes a copy-on-write sample table of about {@code instantFiles} instant files. */
  static void write(Path base, int instantFiles, long seed) throws IOException {
    Files.createDirectories(base);
    try (MetaStorage storage = open(base)) {
      SampleTable.write(storage, location(base), SampleTable.Spec.ofSize(instantFiles, seed));
    }
  }

  /**
   * Hard links of every file: the archiver never changes an instant file, only deletes it (which
   * leaves the other link alone), and the checker compares every byte against the original anyway.
   */
  static void link(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.createLink(target, p);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  static Map<String, byte[]> snapshot(Path base) throws IOException {
    try (MetaStorage storage = open(base)) {
      return InvariantChecker.snapshot(storage, location(base).resolve(".hoodie"));
    }
  }

  static List<String> violations(InvariantChecker checker, Path base) throws IOException {
    try (MetaStorage storage = open(base)) {
      StorageLocation meta = location(base).resolve(".hoodie");
      return checker.check(storage, meta, meta.resolve("archived"));
    }
  }

  /** The names of every file below {@code base}, relative to it. */
  static TreeSet<String> files(Path base) throws IOException {
    try (Stream<Path> files = Files.walk(base)) {
      TreeSet<String> names = new TreeSet<>();
      files.filter(Files::isRegularFile).forEach(p -> names.add(base.relativize(p).toString()));
      return names;
    }
  }

  static void delete(Path base) throws IOException {
    try (Stream<Path> files = Files.walk(base)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
