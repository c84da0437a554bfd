package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appending to a file another client still holds open.
 *
 * <p>Another client holds the file open (a live writer, or one that died within the last minute).
 * With the archive lock held that writer is a stale archiver, so its lease is taken over as the
 * HDFS docs describe for crashed writers: recover the lease, wait for the file to be closed, append
 * again. If that does not finish within {@link HdfsConfig#LEASE_RECOVERY_TIMEOUT} the caller rolls
 * over to a new file.
 */
final class HdfsLeaseRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsLeaseRecovery.class);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

  private final FileSystem fs;
  private final Configuration conf;
  private final Duration timeout;

  HdfsLeaseRecovery(FileSystem fs, Configuration conf, Duration timeout) {
    this.fs = requireNonNull(fs, "fs is null");
    this.conf = requireNonNull(conf, "conf is null");
    this.timeout = requireNonNull(timeout, "timeout is null");
  }

  /**
   * {@code fs.append(path)}, taking the file over if another client holds it open.
   *
   * @throws IOException Hadoop's own exception when the append fails for another reason (so that a
   *     caller can tell a missing file), the SPI's when taking over fails
   */
  FSDataOutputStream append(Path path, StorageLocation file) throws IOException {
    try {
      return fs.append(path);
    } catch (IOException e) {
      if (!HdfsErrors.isLeaseHeld(e)) {
        throw e;
      }
      return takeOver(path, file, e);
    }
  }

  private FSDataOutputStream takeOver(Path path, StorageLocation file, IOException leaseHeld)
      throws IOException {
    Optional<Target> target;
    try {
      target = target(path);
    } catch (IOException e) {
      throw HdfsErrors.translate(e, file);
    }
    if (target.isEmpty()) {
      throw new IOException(
          "cannot append to " + file + ": another writer holds it open",
          HdfsErrors.unwrap(leaseHeld));
    }
    LOG.warn("{} is held open by another writer; recovering its lease", file);
    boolean closed;
    try {
      closed = awaitRecovery(target.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("interrupted while recovering the lease of " + file);
      interrupted.initCause(e);
      throw interrupted;
    } catch (IOException e) {
      throw HdfsErrors.translate(e, file);
    }
    if (!closed) {
      throw new IOException(
          "cannot append to "
              + file
              + ": another writer held it open and recovering its lease took longer than "
              + HdfsConfig.LEASE_RECOVERY_TIMEOUT.formatted(timeout)
              + " ("
              + HdfsConfig.LEASE_RECOVERY_TIMEOUT.key()
              + "); write to a new file",
          HdfsErrors.unwrap(leaseHeld));
    }
    LOG.info("recovered the lease of {}", file);
    try {
      return fs.append(path);
    } catch (IOException e) {
      throw HdfsErrors.translate(e, file);
    }
  }

  private boolean awaitRecovery(Target target) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean closed = target.fs().recoverLease(target.path());
    while (!closed && deadline - System.nanoTime() > 0) {
      long leftMillis = (deadline - System.nanoTime()) / 1_000_000;
      Thread.sleep(Math.max(1, Math.min(POLL_INTERVAL.toMillis(), leftMillis)));
      closed = target.fs().isFileClosed(target.path());
    }
    return closed;
  }

  private record Target(LeaseRecoverable fs, Path path) {}

  /**
   * Who can recover a lease on {@code path}: HDFS itself, or for viewfs the HDFS a mount point
   * leads to. That FileSystem comes from Hadoop's shared cache and is not ours to close.
   */
  private Optional<Target> target(Path path) throws IOException {
    if (fs instanceof LeaseRecoverable recoverable) {
      return Optional.of(new Target(recoverable, path));
    }
    Path resolved = fs.resolvePath(path);
    if (resolved.toUri().getScheme() == null
        || resolved.toUri().getScheme().equals(fs.getUri().getScheme())) {
      return Optional.empty();
    }
    FileSystem mounted = resolved.getFileSystem(conf);
    if (mounted instanceof LeaseRecoverable recoverable) {
      return Optional.of(new Target(recoverable, resolved));
    }
    return Optional.empty();
  }
}
