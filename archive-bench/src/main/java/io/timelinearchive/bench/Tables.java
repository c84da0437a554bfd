package io.timelinearchive.bench;

import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Sample tables on the local disk, and identical copies of them. */
final class Tables {
  private Tables() {}

  /**
   * A copy-on-write table of about {@code instantFiles} instant files: commits (requested, inflight
   * with JSON, completed with write stats) and a clean (Avro plan twice, Avro metadata) after every
   * second commit, no barrier but the retained commits.
   */
  static SampleTable.Spec spec(int instantFiles) {
    // 2 commits (6 files) and 1 clean (3 files) per 9 files
    int commits = Math.max(2, instantFiles * 2 / 9);
    return new SampleTable.Spec(
        commits, false, 0, 2, 0, 0, false, LocalDateTime.of(2024, 1, 1, 0, 0), 9);
  }

  static SampleTable.Written write(Path dir, SampleTable.Spec spec) throws IOException {
    StorageLocation base = uri(dir);
    try (MetaStorage storage = MetaStorages.open(base, Map.of())) {
      return SampleTable.write(storage, base, spec);
    }
  }

  static StorageLocation uri(Path dir) {
    return StorageLocation.of("file://" + dir.toAbsolutePath());
  }

  /** Copies a folder tree, modification times included (they become state transition times). */
  static void copy(Path source, Path target) throws IOException {
    Files.walkFileTree(
        source,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(target.resolve(source.relativize(dir)));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.copy(
                file, target.resolve(source.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Names of the instant files left directly in {@code .hoodie/} (Hadoop's .crc files aside). */
  static Set<String> activeFiles(Path table) throws IOException {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.list(table.resolve(HoodieTable.META_FOLDER))) {
      files
          .filter(Files::isRegularFile)
          .map(f -> f.getFileName().toString())
          .filter(n -> !n.startsWith(".") && Character.isDigit(n.charAt(0)))
          .forEach(names::add);
    }
    return names;
  }

  /**
   * What only one side kept, when the active timelines {@code ours} and {@code hudi} (instant file
   * names) differ; empty when they are the same.
   */
  static java.util.Optional<String> difference(Set<String> ours, Set<String> hudi) {
    if (ours.equals(hudi)) {
      return java.util.Optional.empty();
    }
    Set<String> onlyOurs = new TreeSet<>(ours);
    onlyOurs.removeAll(hudi);
    Set<String> onlyHudi = new TreeSet<>(hudi);
    onlyHudi.removeAll(ours);
    return java.util.Optional.of(
        "different active timelines left: only ours kept "
            + first(onlyOurs)
            + ", only Hudi kept "
            + first(onlyHudi));
  }

  private static String first(Set<String> names) {
    return names.size() <= 3
        ? names.toString()
        : names.stream().limit(3).toList() + " and " + (names.size() - 3) + " more";
  }

  static long countFiles(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.count();
    }
  }
}
