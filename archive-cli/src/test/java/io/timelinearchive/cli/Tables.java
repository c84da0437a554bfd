package io.timelinearchive.cli;

import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/** Sample tables for the tests, and snapshots of what is stored to compare before and after. */
final class Tables {
  /** 51 instant files: 12 commits and 5 cleans, no savepoint or pending compaction. */
  static final SampleTable.Spec SMALL = SampleTable.Spec.ofSize(60, 7);

  /**
   * Settings under which {@link #SMALL} archives 10 of its commits and 3 of its cleans: without a
   * lower cleaner retention, Hudi's rules would widen min to 11.
   */
  static final List<String> AGGRESSIVE =
      List.of("--min", "2", "--max", "4", "--conf", "hoodie.cleaner.commits.retained=1");

  private Tables() {}

  static SampleTable.Written write(Path dir, SampleTable.Spec spec) throws IOException {
    return write(StorageLocation.of(dir.toAbsolutePath().toString()), spec);
  }

  static SampleTable.Written write(String uri, SampleTable.Spec spec) throws IOException {
    return write(StorageLocation.of(uri), spec);
  }

  private static SampleTable.Written write(StorageLocation base, SampleTable.Spec spec)
      throws IOException {
    try (MetaStorage storage = MetaStorages.open(base, Map.of())) {
      return SampleTable.write(storage, base, spec);
    }
  }

  /** A table location on a memory volume of its own. */
  static String memoryUri() {
    return "memory://cli-test-" + UUID.randomUUID() + "/t";
  }

  static Path meta(Path table) {
    return table.resolve(".hoodie");
  }

  static Path archiveFile(Path table, int version) {
    return meta(table).resolve("archived").resolve(".commits_.archive." + version + "_1-0-1");
  }

  /** Every file below {@code dir}: size, content digest and modification time, by path. */
  static SortedMap<String, String> snapshot(Path dir) throws IOException {
    SortedMap<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        files.put(
            dir.relativize(p).toString(),
            Files.size(p)
                + " "
                + digest(Files.readAllBytes(p))
                + " "
                + Files.getLastModifiedTime(p).toMillis());
      }
    }
    return files;
  }

  /** The files of {@code .hoodie/} and its archive folder on any storage, as {@link #snapshot}. */
  static SortedMap<String, String> snapshot(String uri) throws IOException {
    StorageLocation base = StorageLocation.of(uri);
    SortedMap<String, String> files = new TreeMap<>();
    try (MetaStorage storage = MetaStorages.open(base, Map.of())) {
      for (StorageLocation folder :
          List.of(base.resolve(".hoodie"), base.resolve(".hoodie").resolve("archived"))) {
        for (FileEntry f : storage.list(folder).toList()) {
          files.put(
              folder.fileName() + "/" + f.name(),
              f.length()
                  + " "
                  + digest(storage.read(f.location()))
                  + " "
                  + f.lastModified().toEpochMilli());
        }
      }
    }
    return files;
  }

  /** The instant files now in the table's {@code .hoodie/}, by the instant their names say. */
  static List<TimelineInstant> activeInstants(Path table) throws IOException {
    List<TimelineInstant> instants = new ArrayList<>();
    try (Stream<Path> files = Files.list(meta(table))) {
      for (Path p : files.toList()) {
        if (InstantFileName.parse(p.getFileName().toString())
            instanceof InstantFileName.Result.Parsed parsed) {
          instants.add(parsed.instant());
        }
      }
    }
    instants.sort(TimelineInstant.ORDER);
    return instants;
  }

  /** The line the CLI prints for an instant, written out here rather than taken from the CLI. */
  static String line(TimelineInstant i) {
    return i.time() + " " + i.action().actionName() + " " + i.state().name();
  }

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
