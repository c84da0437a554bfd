package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigValues;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The archiver's own settings (selection rules are in {@link
 * io.timelinearchive.select.ArchivalPolicy}).
 *
 * @param owner who holds the lock, as written in the lock file: host, process and a random id
 * @param readParallelism instant files read at once ({@code archive.read.parallelism}, 1–256,
 *     default 16)
 * @param lockLease how long the lock is valid without renewal ({@code archive.lock.lease}, default
 *     10m)
 * @param maxArchiveFileBytes an archive file at least this large is not appended to any more
 *     ({@code archive.file.max-bytes}, default 512 MiB, as Hudi)
 * @param writeBufferBytes encoded archive bytes a run holds before writing them ({@code
 *     archive.write.buffer-bytes}, default 16 MiB): a larger run appends in several steps, or
 *     writes several archive files where the store cannot append, and holds only about this much
 */
record ArchiverSettings(
    String owner,
    int readParallelism,
    Duration lockLease,
    long maxArchiveFileBytes,
    long writeBufferBytes) {
  static final String READ_PARALLELISM = "archive.read.parallelism";
  static final String LOCK_LEASE = "archive.lock.lease";
  static final String MAX_FILE_BYTES = "archive.file.max-bytes";
  static final String WRITE_BUFFER_BYTES = "archive.write.buffer-bytes";

  ArchiverSettings {
    requireNonNull(owner, "owner is null");
    requireNonNull(lockLease, "lockLease is null");
  }

  static ArchiverSettings fromConfig(Map<String, String> config) {
    int parallelism = ConfigValues.intValue(config, READ_PARALLELISM, 16);
    if (parallelism < 1 || parallelism > 256) {
      throw ConfigValues.invalid(
          READ_PARALLELISM, config.get(READ_PARALLELISM), "must be 1 to 256", null);
    }
    Duration lease = ConfigValues.duration(config, LOCK_LEASE).orElse(Duration.ofMinutes(10));
    if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
      throw ConfigValues.invalid(LOCK_LEASE, config.get(LOCK_LEASE), "must be at least 1s", null);
    }
    long maxBytes = ConfigValues.longValue(config, MAX_FILE_BYTES, 512L * 1024 * 1024);
    if (maxBytes < 1024) {
      throw ConfigValues.invalid(
          MAX_FILE_BYTES, config.get(MAX_FILE_BYTES), "must be at least 1024", null);
    }
    long bufferBytes = ConfigValues.longValue(config, WRITE_BUFFER_BYTES, 16L * 1024 * 1024);
    if (bufferBytes < 1) {
      throw ConfigValues.invalid(
          WRITE_BUFFER_BYTES, config.get(WRITE_BUFFER_BYTES), "must be at least 1", null);
    }
    return new ArchiverSettings(defaultOwner(), parallelism, lease, maxBytes, bufferBytes);
  }

  private static String defaultOwner() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "unknown-host";
    }
    String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
    return host + "/" + pid + "/" + UUID.randomUUID().toString().substring(0, 8);
  }
}
