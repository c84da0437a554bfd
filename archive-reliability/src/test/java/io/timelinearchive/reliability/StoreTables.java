package io.timelinearchive.reliability;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/** Tables on a server: copied up from a local one, checked and cleared through the storage SPI. */
final class StoreTables {
  private static final List<String> FOLDERS = List.of("", ".hoodie", ".hoodie/archived");

  private StoreTables() {}

  /** Copies every file below the local {@code from} to the same names below {@code root}. */
  static void upload(Path from, Store store, StorageLocation root) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(from)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (MetaStorage storage = store.open(root)) {
      List<Future<?>> uploads = new ArrayList<>();
      for (Path file : files) {
        uploads.add(
            pool.submit(
                () -> {
                  storage.createExclusive(
                      root.resolve(from.relativize(file).toString()), Files.readAllBytes(file));
                  return null;
                }));
      }
      for (Future<?> upload : uploads) {
        upload.get();
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }

  static Map<String, byte[]> snapshot(Store store, StorageLocation root) throws IOException {
    return settled(
        () -> {
          try (MetaStorage storage = store.open(root)) {
            return InvariantChecker.snapshot(storage, root.resolve(".hoodie"));
          }
        });
  }

  static List<String> violations(InvariantChecker checker, Store store, StorageLocation root)
      throws IOException {
    return settled(
        () -> {
          try (MetaStorage storage = store.open(root)) {
            StorageLocation meta = root.resolve(".hoodie");
            return checker.check(storage, meta, meta.resolve("archived"));
          }
        });
  }

  private interface Look<T> {
    T at() throws IOException;
  }

  /**
   * Looks again when a listed file is gone before it is read: a server still carries out the
   * requests a killed client sent just before its end (a batch of deletes, say).
   */
  private static <T> T settled(Look<T> look) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return look.at();
      } catch (NoSuchFileException e) {
        if (attempt == 10) {
          throw e;
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", interrupted);
        }
      }
    }
  }

  static boolean exists(MetaStorage storage, StorageLocation file) throws IOException {
    try {
      storage.read(file);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** The names of the files in the archive folder. */
  static TreeSet<String> archiveFolder(Store store, StorageLocation root) throws IOException {
    try (MetaStorage storage = store.open(root)) {
      TreeSet<String> names = new TreeSet<>();
      storage.list(root.resolve(".hoodie/archived")).toList().forEach(e -> names.add(e.name()));
      return names;
    }
  }

  /** The newest lease expiry written in the archive folder's lock files, if any is left. */
  static java.time.Instant leaseExpiry(Store store, StorageLocation root) throws IOException {
    java.time.Instant expiry = java.time.Instant.MIN;
    try (MetaStorage storage = store.open(root)) {
      for (FileEntry lock : storage.list(root.resolve(".hoodie/archived")).toList()) {
        if (!lock.name().startsWith(".timeline_archive.lock.")) {
          continue;
        }
        byte[] bytes;
        try {
          bytes = storage.read(lock.location());
        } catch (NoSuchFileException e) {
          continue; // released meanwhile
        }
        for (String line : new String(bytes, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
          if (line.startsWith("expiry=")) {
            java.time.Instant e = java.time.Instant.parse(line.substring("expiry=".length()));
            expiry = e.isAfter(expiry) ? e : expiry;
          }
        }
      }
    }
    return expiry;
  }

  /** Sleeps until the newest lease left in the table has run out. */
  static void waitForLease(Store store, StorageLocation root) throws Exception {
    java.time.Instant expiry = leaseExpiry(store, root);
    if (expiry.equals(java.time.Instant.MIN)) {
      return;
    }
    long wait = java.time.Duration.between(java.time.Instant.now(), expiry).toMillis();
    if (wait > 0) {
      Thread.sleep(wait + 50);
    }
  }

  /** Deletes the table's files, so that a long run does not fill the server's memory. */
  static void clear(Store store, StorageLocation root) throws IOException {
    try (MetaStorage storage = store.open(root)) {
      for (String folder : FOLDERS) {
        StorageLocation location = folder.isEmpty() ? root : root.resolve(folder);
        List<StorageLocation> files =
            storage.list(location).toList().stream().map(FileEntry::location).toList();
        storage.deleteAll(files);
      }
    }
  }
}
